import type { Queryable } from '../../store/db.js';
import { type PlatformGateway, type PlatformLevel, PlatformUnavailableError } from '../gateway.js';

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
      for (const write of writes) {
        const { rowCount } = await tx.query(
          `INSERT INTO local_platform_levels (shop_id, location_id, variant_id, available)
           VALUES ($1, $2, $3, $4)
           ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET available = EXCLUDED.available,
             updated_at = now()
           WHERE local_platform_levels.available = $5`,
          [shopId, write.locationId, write.variantId, write.available, write.expected],
        );
        if (rowCount === 0) {
          throw new PlatformUnavailableError(
            `Platform level of variant ${write.variantId} at location ${write.locationId} changed concurrently.`,
          );
        }
      }
    },
  };
}
