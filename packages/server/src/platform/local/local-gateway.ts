import type { Queryable } from '../../store/db.js';
import { type PlatformGateway, type PlatformLevel, PlatformUnavailableError } from '../gateway.js';
import { deleteLineItem, readLocalOrder, touchOrder, updateLineItem } from './orders-repository.js';

/** The embedded platform: its integer levels live in Tare's database, written in Tare's transaction. */
export function createLocalGateway(): PlatformGateway {
  return {
    name: 'local',
    async readLevels(tx: Queryable, shopId, keys) {
      if (keys.length === 0) return [];
      const { rows } = await tx.query<{ location_id: string; variant_id: string; available: string }>(
        `SELECT location_id, variant_id, available FROM local_platform_levels
         WHERE shop_id = $1 AND (location_id, variant_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
        [shopId, keys.map((k) => k.locationId), keys.map((k) => k.variantId)],
      );
      return rows.map((row): PlatformLevel => ({
        locationId: row.location_id,
        variantId: row.variant_id,
        available: Number(row.available),
      }));
    },
    async setLevels(tx: Queryable, shopId, writes) {
      if (writes.length === 0) return;
      // One statement for the whole batch; each row is written only if it still holds the
      // value the caller read (compare-and-set), so the row count tells whether all applied.
      const { rowCount } = await tx.query(
        `WITH w AS (
           SELECT * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[]) AS w(location_id, variant_id, available, expected))
         INSERT INTO local_platform_levels AS l (shop_id, location_id, variant_id, available)
         SELECT $1, location_id, variant_id, available FROM w
         ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET available = EXCLUDED.available, updated_at = now()
         WHERE l.available IS NOT DISTINCT FROM (
           SELECT expected FROM w WHERE w.location_id = EXCLUDED.location_id AND w.variant_id = EXCLUDED.variant_id)`,
        [
          shopId,
          writes.map((w) => w.locationId),
          writes.map((w) => w.variantId),
          writes.map((w) => w.available),
          writes.map((w) => w.expected),
        ],
      );
      if (rowCount !== writes.length) {
        throw new PlatformUnavailableError('A platform level changed concurrently; nothing was written.');
      }
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
