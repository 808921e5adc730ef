import type { InventoryLevel } from '@tare/contracts';
import type { Db } from '../../store/db.js';
import {
  listStockLocations,
  listStockVariants,
  type StockLocation,
  type StockVariant,
} from '../../store/repositories/stock-overview.js';
import type { InventoryReader } from './read-inventory.js';

/** The levels service reads at most this many variants at once (as `GET /inventory/levels`). */
const BATCH = 100;

export interface StockRow extends StockVariant {
  location: StockLocation;
  level: InventoryLevel;
}

/**
 * Every variant at every location of the shop, each level read by the same reader as
 * `GET /api/v1/inventory/levels` (exact total, the platform's whole units, the fraction).
 */
export async function stockOverview(
  deps: { db: Db; readInventory: InventoryReader },
  shopId: string,
  only: { locationId?: string; variantId?: string } = {},
): Promise<{ locations: StockLocation[]; rows: StockRow[] }> {
  const [variants, locations] = await Promise.all([
    listStockVariants(deps.db, shopId, only.variantId),
    listStockLocations(deps.db, shopId, only.locationId),
  ]);
  const rows: StockRow[] = [];
  for (const location of locations) {
    for (let start = 0; start < variants.length; start += BATCH) {
      const batch = variants.slice(start, start + BATCH);
      const { levels } = await deps.readInventory.levels(
        shopId,
        location.id,
        batch.map((variant) => variant.variantId),
      );
      batch.forEach((variant, i) => rows.push({ ...variant, location, level: levels[i]! }));
    }
  }
  return { locations, rows };
}

/** One level with its variant, product and location; another shop's is not found (404). */
export async function stockOf(
  deps: { db: Db; readInventory: InventoryReader },
  shopId: string,
  locationId: string,
  variantId: string,
): Promise<StockRow> {
  const { rows } = await stockOverview(deps, shopId, { locationId, variantId });
  if (rows[0]) return rows[0];
  // Let the API's reader name what is missing, in the API's words.
  await deps.readInventory.levels(shopId, locationId, [variantId]);
  throw new Error(`level ${locationId}/${variantId} read but not listed`);
}
