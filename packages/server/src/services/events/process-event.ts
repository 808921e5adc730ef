import type { PlatformGateway } from '../../platform/gateway.js';
import type { Queryable } from '../../store/db.js';
import type { InboxEvent } from '../../store/repositories/platform-events.js';
import { followLevel } from './follow-level.js';
import { holdWhileSyncStopped, processShopifyEvent } from './shopify-events.js';
import { syncOrder } from './sync-order.js';

export interface EventOutcome {
  /** What processing did, for the logs: booked rows, a level's outcome, or why nothing. */
  summary: string;
}

/**
 * Applies one inbox event in the caller's transaction. Every order event re-reads the order
 * from the platform and books the difference, and a stock change compares the platform's
 * figure now, so an event's payload is only a pointer: duplicates, late and reordered
 * deliveries all end in the same state.
 */
export async function processEvent(tx: Queryable, gateway: PlatformGateway, event: InboxEvent): Promise<EventOutcome> {
  const requestId = `event:${event.eventId}`.slice(0, 128);
  const payload = event.payload as Record<string, unknown>;
  const shopify = await processShopifyEvent(tx, gateway, event);
  if (shopify !== undefined) return { summary: shopify };
  const held = await holdWhileSyncStopped(tx, event);
  if (held !== undefined) return { summary: held };
  if (event.topic === 'stock_changed') {
    const locationId = String(payload.locationId ?? '');
    const variantId = String(payload.variantId ?? '');
    const outcome = await followLevel(tx, gateway, {
      shopId: event.shopId,
      locationId,
      variantId,
      cause: event.eventId,
      requestId,
      reported: typeof payload.available === 'number' ? payload.available : undefined,
    });
    return { summary: `level ${locationId}/${variantId}: ${outcome}` };
  }
  const orderId = String(payload.orderId ?? '');
  const result = await syncOrder(tx, gateway, { shopId: event.shopId, orderId, requestId, platform: event.platform });
  if (!result.found) return { summary: `order ${orderId}: not on the platform` };
  const skipped = result.skipped.length ? `, ${result.skipped.length} line(s) skipped` : '';
  return { summary: `order ${orderId}: ${result.booked} booking(s)${skipped}` };
}
