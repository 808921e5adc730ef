import type { UnitPricingSettings } from '@tare/contracts';
import type { Queryable } from '../db.js';

/** What a shop's unit prices are computed with: its currency and its `settings.unitPricing`. */
export interface ShopUnitPricing {
  currency: string;
  /** Undefined until an import states it (unit pricing off). */
  settings?: UnitPricingSettings;
}

/** The shop's currency and unit pricing (PRODUCT.md §21), or undefined for an unknown shop. */
export async function readUnitPricing(db: Queryable, shopId: string): Promise<ShopUnitPricing | undefined> {
  const { rows } = await db.query<{ currency: string; unit_pricing: UnitPricingSettings | null }>(
    'SELECT currency, unit_pricing FROM shops WHERE id = $1',
    [shopId],
  );
  const row = rows[0];
  return row && { currency: row.currency, ...(row.unit_pricing ? { settings: row.unit_pricing } : {}) };
}

/** Replaces the shop's unit pricing when it differs (jsonb compares by value); returns whether it did. */
export async function writeUnitPricing(db: Queryable, shopId: string, settings: UnitPricingSettings): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE shops SET unit_pricing = $2::jsonb, updated_at = now()
     WHERE id = $1 AND unit_pricing IS DISTINCT FROM $2::jsonb`,
    [shopId, JSON.stringify(settings)],
  );
  return rowCount > 0;
}
