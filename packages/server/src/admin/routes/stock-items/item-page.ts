import { unitsOf } from '../../../domain/units.js';
import { errors } from '../../../errors.js';
import { createStockItemReader } from '../../../services/stock-items/read-stock-items.js';
import type { Db } from '../../../store/db.js';
import { ordersOfRefunds } from '../../../store/repositories/booked-orders.js';
import { listStockLocations, listStockVariants } from '../../../store/repositories/stock-overview.js';
import { findStockItems } from '../../../store/repositories/stock-items.js';
import { itemLevelHistory } from '../../display/level-history.js';

const LEDGER_ROWS = 100;

export const itemPath = (stockItemId: string) => `/admin/inventory/stock-items/${encodeURIComponent(stockItemId)}`;
export const variantPagePath = (productId: string, variantId: string) =>
  `/admin/products/${encodeURIComponent(productId)}/variants/${encodeURIComponent(variantId)}`;

/**
 * What the item page shows at one location (the shop's first by name when none is asked): the
 * item's level as `GET /api/v1/stock-items/{id}/levels` answers it, each linked variant with its
 * product, the item's ledger (each entry's variant named) and its chart. Another shop's item or
 * location is not found, as in the API.
 */
export async function readItemPage(db: Db, shopId: string, stockItemId: string, asked: string | undefined) {
  const item = (await findStockItems(db, shopId, [stockItemId])).get(stockItemId);
  if (!item) throw errors.notFound('stock item', stockItemId);
  const locations = await listStockLocations(db, shopId);
  const location = asked === undefined ? locations[0] : locations.find((l) => l.id === asked);
  if (!location) throw errors.notFound('location', asked ?? '');
  const reader = createStockItemReader({ db });
  const [level, ledger, variants] = await Promise.all([
    reader.levels(shopId, stockItemId, location.id),
    reader.ledgerWithActors(shopId, stockItemId, location.id, LEDGER_ROWS),
    listStockVariants(db, shopId),
  ]);
  const refundIds = ledger.entries.flatMap((entry) =>
    entry.reference?.type === 'refund' ? [entry.reference.id ?? ''] : [],
  );
  return {
    item,
    location,
    locations,
    level,
    units: unitsOf(item.measurementType),
    /** Every variant of the shop by id: the linked ones and those the ledger names. */
    variants: new Map(variants.map((variant) => [variant.variantId, variant])),
    entries: ledger.entries,
    actors: ledger.actors,
    refundOrders: await ordersOfRefunds(db, shopId, refundIds),
    history: JSON.stringify(itemLevelHistory(item.unit, ledger.entries)),
  };
}

/**
 * Every stock item of the shop at every location, each with its level as the API reads it (its
 * linked variants' whole units and fractions): the inventory overview lists them with their
 * variants under them.
 */
export async function itemsAtLocations(db: Db, shopId: string, locations: readonly { id: string; name: string }[]) {
  const items = [...(await findStockItems(db, shopId)).values()];
  const reader = createStockItemReader({ db });
  const groups = [];
  for (const item of items) {
    for (const location of locations) {
      groups.push({ item, location, level: await reader.levels(shopId, item.id, location.id) });
    }
  }
  return groups;
}
