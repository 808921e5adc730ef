import type { Queryable } from '../../store/db.js';
import type { PlatformGateway } from '../gateway.js';
import { deleteLineItem, readLocalOrder, touchOrder, updateLineItem } from './orders-repository.js';

/** The embedded platform: its integer levels live in Tare's database, written in Tare's transaction. */
export function createLocalGateway(): PlatformGateway {
  return {
    name: 'local',
    async projectLevels(tx: Queryable, shopId, levels) {
      if (levels.length === 0) return 0;
      // One statement, atomic under the row locks it takes: nothing can move in between.
      const { rowCount } = await tx.query(
        `INSERT INTO local_platform_levels AS l (shop_id, location_id, variant_id, available)
         SELECT $1, location_id, variant_id, available
         FROM unnest($2::text[], $3::text[], $4::bigint[]) AS w(location_id, variant_id, available)
         ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET available = EXCLUDED.available, updated_at = now()
         WHERE l.available IS DISTINCT FROM EXCLUDED.available`,
        [shopId, levels.map((l) => l.locationId), levels.map((l) => l.variantId), levels.map((l) => l.available)],
      );
      return rowCount;
    },
    readOrder(tx, shopId, orderId, options) {
      return readLocalOrder(tx, shopId, orderId, options?.forUpdate ?? false);
    },
    // The embedded platform has no customers to notify; the edit history keeps both fields.
    async editOrder(tx, shopId, orderId, changes) {
      for (const change of changes) {
        if (change.remove) await deleteLineItem(tx, shopId, change.lineItemId);
        else await updateLineItem(tx, shopId, { id: change.lineItemId, ...change });
      }
      await touchOrder(tx, shopId, orderId);
    },
  };
}
