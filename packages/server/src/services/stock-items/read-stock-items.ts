import type { StockItemLevel } from '@tare/contracts';
import { Dec, toJsonNumber } from '../../domain/decimal.js';
import { wholeUnitsOf } from '../../domain/sibling-units.js';
import { convertForStorage } from '../../domain/units.js';
import { errors } from '../../errors.js';
import type { Db } from '../../store/db.js';
import { readItemLedger } from '../../store/repositories/stock-item-ledger.js';
import { readItemLevel } from '../../store/repositories/stock-items.js';
import { toApiEntry } from '../inventory/read-inventory.js';

/**
 * Reads a stock item's level (PRODUCT.md §20): its exact total in its own unit, and for every
 * linked variant the whole units the platform is shown (`floor(total ÷ its unit measurement)`)
 * and the fraction that remains, in the variant's unit. An item without a level reads 0.
 */
export function createStockItemReader(deps: { db: Db }) {
  return {
    async levels(shopId: string, stockItemId: string, locationId: string): Promise<StockItemLevel> {
      const { locationFound, level } = await readItemLevel(deps.db, shopId, stockItemId, locationId);
      if (!level) throw errors.notFound('stock item', stockItemId);
      if (!locationFound) throw errors.notFound('location', locationId);
      const { item } = level;
      const total =
        level.total === null ? new Dec(0) : convertForStorage(new Dec(level.total), level.levelUnit!, item.unit);
      return {
        stockItemId: item.id,
        title: item.title,
        locationId,
        quantity: { value: toJsonNumber(total), unit: item.unit },
        variants: level.variants.map((variant) => {
          const unitValue = new Dec(variant.unitValue);
          const units = wholeUnitsOf(total, item.unit, variant.unit, unitValue);
          const inVariantUnit = convertForStorage(total, item.unit, variant.unit);
          return {
            variantId: variant.variantId,
            unitMeasurement: { value: toJsonNumber(unitValue), unit: variant.unit },
            platform: { available: units.toNumber() },
            fraction: { value: toJsonNumber(inVariantUnit.minus(units.times(unitValue))), unit: variant.unit },
          };
        }),
        updatedAt: level.updatedAt?.toISOString() ?? null,
      };
    },

    /**
     * The newest `limit` entries of the item's ledger at the location, in the API's shape (each
     * with the `variantId` that caused it, null for an import or a write on the item itself), and
     * who made each, by entry id: the admin's item page. The caller has read the item's level.
     */
    async ledgerWithActors(shopId: string, stockItemId: string, locationId: string, limit: number) {
      const rows = await readItemLedger(deps.db, shopId, stockItemId, locationId, limit);
      return {
        entries: rows.map((row) => ({ ...toApiEntry(row), variantId: row.variantId ?? null })),
        actors: new Map(rows.map((row) => [row.id, row.actor])),
      };
    },
  };
}
export type StockItemReader = ReturnType<typeof createStockItemReader>;
