import { UNIT_PRICED_TYPES, type UnitPricingSettings } from '@tare/contracts';
import { isUnitOfType, unitsOf } from '../../domain/units.js';
import type { Queryable } from '../../store/db.js';
import { writeUnitPricing } from '../../store/repositories/unit-pricing.js';
import type { ImportShop } from './import-document.js';
import type { SoundParts } from './sound-parts.js';

/**
 * The import's check of `settings.unitPricing` (PRODUCT.md §21) beyond the schema: each
 * reference is stated in a unit of its own type (a weight per kg or per 100 g, never per L).
 */
export function checkUnitPricing(
  shop: ImportShop,
  at: string,
  sound: SoundParts,
  report: (path: string, message: string) => void,
) {
  const referenceAt = `${at}/settings/unitPricing/reference`;
  if (!sound.readable(referenceAt)) return;
  const references = shop.settings?.unitPricing?.reference ?? {};
  for (const type of UNIT_PRICED_TYPES) {
    const unitAt = `${referenceAt}/${type}/unit`;
    const unit = references[type]?.unit;
    if (unit === undefined || !sound.clean(unitAt) || isUnitOfType(unit, type)) continue;
    report(unitAt, `unit '${unit}' is not a ${type} unit; use one of ${unitsOf(type).join(', ')}`);
  }
}

/** Writes the unit pricing the file states (the whole object replaces the stored one); returns rows changed. */
export async function importUnitPricing(tx: Queryable, shopId: string, shop: ImportShop): Promise<number> {
  const stated = shop.settings?.unitPricing;
  if (stated === undefined) return 0;
  // The schema keeps only the four types' references; jsonb compares by value, whatever the key order.
  const settings: UnitPricingSettings = { enabled: stated.enabled, reference: stated.reference ?? {} };
  return (await writeUnitPricing(tx, shopId, settings)) ? 1 : 0;
}
