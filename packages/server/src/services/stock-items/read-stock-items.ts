import type { StockItemLevel } from '@tare/contracts';
import { Dec, toJsonNumber } from '../../domain/decimal.js';
import { wholeUnitsOf } from '../../domain/sibling-units.js';
import { convertForStorage } from '../../domain/units.js';
import { errors } from '../../errors.js';
import type { Db } from '../../store/db.js';
import { readItemLevel } from '../../store/repositories/stock-items.js';

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
  };
}
export type StockItemReader = ReturnType<typeof createStockItemReader>;
