import { readStoredLinks } from '../../../store/repositories/stock-item-guards.js';
import { findStockItems } from '../../../store/repositories/stock-items.js';
import { applyProductEdit, type EditResult, type ImportDeps } from './product-edits.js';

/**
 * Links a variant to one of the shop's stock items (`stockItemId`) or unlinks it (''), as an import
 * of its product stating the link (and the item): the import's checks and guards decide (the unit
 * of the item's type, no stock of its own when linking). An unlinked variant starts with 0 of its
 * own at every location where it had a level; the item keeps its stock.
 */
export async function saveStockItemLink(
  deps: ImportDeps,
  shopId: string,
  productId: string,
  variantId: string,
  stockItemId: string,
): Promise<EditResult> {
  const stored = (await readStoredLinks(deps.db, shopId, [variantId])).get(variantId);
  if ((stored?.stockItemId ?? '') === stockItemId) return { ok: true, changed: false };
  if (!stockItemId) {
    const zeroAt = (stored?.levels ?? []).map((level) => ({ id: level.locationId, name: level.locationName }));
    return applyProductEdit(deps, shopId, productId, { link: { variantId, item: null, zeroAt } });
  }
  const item = (await findStockItems(deps.db, shopId, [stockItemId])).get(stockItemId);
  if (!item) {
    return {
      ok: false,
      status: 400,
      issues: [
        { variantId, path: '/stockItemId', message: `must name one of this shop's stock items, not '${stockItemId}'` },
      ],
    };
  }
  return applyProductEdit(deps, shopId, productId, { link: { variantId, item, zeroAt: [] } });
}
