import { AppError } from '../../errors.js';
import type { PlatformGateway } from '../../platform/gateway.js';
import type { Queryable } from '../../store/db.js';
import { lockShopOrders } from '../../store/repositories/order-bookings.js';
import { inSavepoint } from '../../store/savepoint.js';
import { advanceOrdersWatermark, readOrdersWatermark } from '../../store/repositories/platform-sync.js';
import { syncOrder } from './sync-order.js';

/**
 * Transactions commit out of the order of their timestamps: the watermark trails the clock by
 * this much, so an order committed late is still asked for (syncing an order twice is a no-op).
 */
const OVERLAP_MS = 60_000;

/**
 * Books every order the platform created or changed since the shop's watermark ("the orders
 * Tare has not seen yet", PRODUCT.md §14), then moves the watermark on. Returns how many orders
 * the platform named, and how many ledger rows booking them wrote. An order Tare refuses to book
 * is left as it was (its own event reports why).
 */
export async function syncChangedOrders(
  tx: Queryable,
  gateway: PlatformGateway,
  input: { shopId: string; requestId: string },
): Promise<{ checked: number; booked: number }> {
  await lockShopOrders(tx, input.shopId);
  const { until: since, now } = await readOrdersWatermark(tx, input.shopId);
  const ids = await gateway.ordersChangedSince(tx, input.shopId, since);
  let booked = 0;
  for (const orderId of ids) {
    try {
      // An order whose booking Tare refuses is its own event's failure (retried, then parked and
      // reported): it must not stop the notice or the reconciliation that met it on the way.
      const sync = () => syncOrder(tx, gateway, { shopId: input.shopId, orderId, requestId: input.requestId });
      booked += (await inSavepoint(tx, sync)).booked;
    } catch (error) {
      if (!(error instanceof AppError)) throw error; // an outage or a conflict: the whole transaction retries
    }
  }
  await advanceOrdersWatermark(tx, input.shopId, new Date(now.getTime() - OVERLAP_MS));
  return { checked: ids.length, booked };
}
