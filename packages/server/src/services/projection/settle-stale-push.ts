import type { Db, Queryable } from '../../store/db.js';
import { lockLevel, setPlatformAvailable } from '../../store/repositories/inventory.js';
import { storeEvent } from '../../store/repositories/platform-events.js';
import { dropPush, lockQueuedPush, type QueuedPush, rebasePush } from '../../store/repositories/projection-outbox.js';

type LevelKey = { locationId: string; variantId: string };

/**
 * The platform refused a push because it no longer showed the figure Tare expected. What it
 * shows now, read under the level's lock (taken before the outbox row's, in the order every
 * inventory write takes them), decides:
 * - Tare's own figure: the push landed before (its answer was lost); nothing more to do.
 * - what the row now expects (it was queued again while this push was out), or one of Tare's
 *   earlier figures whose answer was lost: the next push starts from it.
 * - anything else: a change Tare has not seen (the merchant typed a number, or an order not yet
 *   booked). The push is dropped, Tare's expectation goes back to what the platform showed
 *   before it, and a `stock_changed` event lets the inbox apply §14's rules, never an overwrite.
 */
export async function settleStalePush(
  db: Db,
  push: QueuedPush,
  readLevel: (tx: Queryable, level: LevelKey) => Promise<number>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockLevel(tx, push);
    const queued = await lockQueuedPush(tx, push);
    if (!queued) return;
    // Read under the locks: an order booked meanwhile would move the platform and the row alike.
    const shown = await readLevel(tx, push);
    // Shopify answered this very figure stale: it did not land by this push, so finding the
    // platform at it is a coincidence of changes Tare has not seen (orders not yet booked).
    const refused = queued.generation === push.generation ? queued.available : undefined;
    if (shown === queued.available && shown !== refused) return dropPush(tx, push);
    // Where the row expects it (queued again since this push left, after an order Tare booked
    // moved the platform), or at a figure of Tare's own: the next push starts from there.
    if (shown === queued.expected || (queued.pushed.includes(shown) && shown !== refused) || queued.expected === null) {
      return rebasePush(tx, queued, shown);
    }
    await setPlatformAvailable(tx, push.shopId, [{ ...push, available: queued.expected }]);
    await dropPush(tx, push);
    await storeEvent(tx, {
      shopId: push.shopId,
      eventId: `tare:stale-push:${push.locationId}:${push.variantId}:${queued.generation}`,
      topic: 'stock_changed',
      payload: { locationId: push.locationId, variantId: push.variantId, available: shown },
    });
  });
}
