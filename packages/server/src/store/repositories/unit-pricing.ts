import type { UnitPricingSettings } from '@tare/contracts';
import type { Queryable } from '../db.js';

/** Replaces the shop's unit pricing when it differs (jsonb compares by value); returns whether it did. */
export async function writeUnitPricing(db: Queryable, shopId: string, settings: UnitPricingSettings): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE shops SET unit_pricing = $2::jsonb, updated_at = now()
     WHERE id = $1 AND unit_pricing IS DISTINCT FROM $2::jsonb`,
    [shopId, JSON.stringify(settings)],
  );
  return rowCount > 0;
}
