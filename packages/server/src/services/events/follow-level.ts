import { PLATFORM } from '../../domain/actor.js';
import { Dec } from '../../domain/decimal.js';
import { splitForPlatform } from '../../domain/platform-split.js';
import { convertForStorage } from '../../domain/units.js';
import type { PlatformGateway } from '../../platform/gateway.js';
import type { Queryable } from '../../store/db.js';
import { type LockedLevel, lockLevelsForWrite, setPlatformAvailable } from '../../store/repositories/inventory.js';
import { lockShopOrders } from '../../store/repositories/order-bookings.js';
import { hasQueuedPush } from '../../store/repositories/projection-outbox.js';
import { findShopById } from '../../store/repositories/shops.js';
import { applyInventoryWrite } from '../inventory/write-inventory.js';
import { followMovedLevels } from '../inventory/moved-levels.js';
import { syncChangedOrders } from './sync-changed-orders.js';

/** How often a notice asks for unbooked orders: orders landing at every read are a busy shop, not a race. */
const ORDER_ASKS = 3;

export interface LevelToFollow {
  shopId: string;
  locationId: string;
  variantId: string;
  /** What the change is booked under (`platform` reference): the event's id. */
  cause: string;
  requestId: string;
  /** The figure the platform's notice reported, if it carried one. */
  reported?: number;
}

export type FollowOutcome =
  /** The variant or location is not configured in Tare: nothing to follow. */
  | 'unknown'
  /**
   * Tare's own figure is still on its way to the platform: the push is written only if the
   * platform still shows what Tare expects, and settles any change it finds (settleStalePush).
   */
  | 'push_pending'
  /** The platform shows what Tare expects (Tare's own projection echoing back, or explained by orders). */
  | 'in_step'
  /** The merchant's figure stands: the difference was added to the exact total, the fraction kept. */
  | 'adopted'
  /** Tare's own level was projected back over the merchant's figure. */
  | 'overridden';

/**
 * A stock figure changed on the platform (PRODUCT.md §14). A figure Tare expects (its own
 * projection echoing back, or explained by the orders it booked) changes nothing. Otherwise the
 * orders the platform placed that Tare has not booked are booked first, so a sale is never
 * taken for the merchant's hand; what remains is the merchant's: `adopt` adds the difference
 * to Tare's whole units × unit value to the exact total (the merchant's number stands, the
 * fraction is kept), `override` projects Tare's level back.
 */
export async function followLevel(
  tx: Queryable,
  gateway: PlatformGateway,
  level: LevelToFollow,
): Promise<FollowOutcome> {
  const { shopId, locationId, variantId } = level;
  // No booking, and no order on the embedded platform, may move the figure until this ends: one
  // after the orders are read below would be taken for the merchant's change, and booked again
  // by its own event. Taken before the level, as every booking takes them: no deadlock.
  await lockShopOrders(tx, shopId);
  let tare = await lockLevel(tx, level);
  if (!tare) return 'unknown';
  if (await hasQueuedPush(tx, level)) return 'push_pending';
  // A notice of the figure Tare expects is its own projection echoing back (Shopify notifies
  // every change, Tare's included): nothing to read. A later change sends its own notice.
  if (level.reported !== undefined && level.reported === tare.platformAvailable) return 'in_step';
  const shownNow = async () => (await gateway.readLevels(tx, shopId, [{ locationId, variantId }]))[0]!.available;
  let shown = await shownNow();
  // Orders the platform placed that Tare has not booked are booked first. While the figure
  // still differs, they are asked for again after it was read: an order that lands on a remote
  // platform as the figure is read shows in it without being in the answer before (Tare's locks
  // hold back only the embedded platform's orders), and would be taken for the merchant's.
  for (let asked = 0; shown !== tare.platformAvailable && asked < ORDER_ASKS; asked++) {
    const { booked } = await syncChangedOrders(tx, gateway, { shopId, requestId: level.requestId });
    if (asked > 0 && booked === 0) break;
    // Booking them may have queued Tare's whole units for a remote platform: that push settles it.
    if (await hasQueuedPush(tx, level)) return 'push_pending';
    tare = (await lockLevel(tx, level))!;
    // Booking those orders may have projected Tare's whole units onto the platform: the figure
    // read before is stale then, and would be taken for the merchant's.
    shown = await shownNow();
  }
  // With every order booked, a figure Tare still does not expect is the merchant's, and it is
  // measured against Tare's own whole units, so that the merchant's number is what stands.
  const unitValue = new Dec(tare.unitValue);
  const own = splitForPlatform(total(tare), unitValue).integer.toNumber();
  const difference = shown === tare.platformAvailable ? 0 : shown - own;
  const shop = await findShopById(tx, shopId);
  if (difference !== 0 && shop?.platformStockChanges !== 'override') {
    await applyInventoryWrite(tx, gateway, {
      shopId,
      operation: 'adjustment',
      locationId,
      entries: [{ variantId, value: new Dec(difference).times(unitValue), unit: tare.unit, path: '' }],
      requestId: level.requestId,
      ledgerOperation: 'platform_adjustment',
      reference: { type: 'platform', id: level.cause },
      actor: PLATFORM,
      platformMoves: new Map([[variantId, shown - (tare.platformAvailable ?? shown)]]),
    });
    return 'adopted';
  }
  // In step, or overridden: the platform shows Tare's own whole units again.
  if (own === shown && tare.platformAvailable === shown) return 'in_step';
  const { projected, moved } = await gateway.projectLevels(tx, shopId, [
    { locationId, variantId, available: own, expected: shown },
  ]);
  await setPlatformAvailable(tx, shopId, projected);
  await followMovedLevels(tx, shopId, moved);
  return difference === 0 ? 'in_step' : 'overridden';
}

async function lockLevel(tx: Queryable, level: LevelToFollow): Promise<LockedLevel | undefined> {
  const { locationFound, levels } = await lockLevelsForWrite(tx, level.shopId, level.locationId, [level.variantId]);
  return locationFound ? levels.get(level.variantId) : undefined;
}

function total(level: LockedLevel): Dec {
  return convertForStorage(new Dec(level.total), level.levelUnit, level.unit);
}
