import { randomUUID } from 'node:crypto';
import type { PlatformLevel } from '../../platform/gateway.js';
import type { Queryable } from '../../store/db.js';
import { storeEvent } from '../../store/repositories/platform-events.js';

/**
 * A projection found the platform showing something Tare did not expect: a stock change made
 * on the platform (or an order) that Tare has not followed yet. It is handed to the inbox as a
 * `stock_changed` event in the same transaction, where §14's rules apply to it like to any
 * platform's notice; processing one that is already explained changes nothing.
 */
export async function followMovedLevels(tx: Queryable, shopId: string, moved: PlatformLevel[]): Promise<void> {
  for (const level of moved) {
    await storeEvent(tx, {
      shopId,
      eventId: `tare:detected:${randomUUID()}`,
      topic: 'stock_changed',
      payload: { locationId: level.locationId, variantId: level.variantId, available: level.available },
    });
  }
}
