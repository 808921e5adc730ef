import { Dec } from '../domain/decimal.js';
import type { ImportDocument } from '../services/catalog-import/import-document.js';
import type { Db } from '../store/db.js';
import { readStoredLinks } from '../store/repositories/stock-item-guards.js';
import { DEMO_CATALOG } from './demo-catalog.js';

/**
 * Before `tare demo --reset` links the demo's variants to their stock item again: the ones a
 * merchant unlinked and stocked on their own, stated at 0 of their own (their stock is the
 * demo's wheel again). The import refuses to link a variant holding stock of its own (decision
 * 108), and a reset overwrites the demo's stock by design. Undefined when none needs it.
 */
export async function demoOwnStockCleared(db: Db, shopId: string): Promise<ImportDocument | undefined> {
  const shop = DEMO_CATALOG.shops[0]!;
  const known = new Set((shop.locations ?? []).map((location) => location.id));
  const linked = (shop.products ?? []).flatMap((product) => product.variants.filter((v) => v.stockItemId));
  const stored = await readStoredLinks(
    db,
    shopId,
    linked.map((variant) => variant.id),
  );
  const owning = new Map(
    [...stored.values()].flatMap((link) => {
      const levels = link.levels.filter((level) => known.has(level.locationId) && !new Dec(level.total).isZero());
      return link.stockItemId === null && levels.length ? [[link.variantId, levels]] : [];
    }),
  );
  if (owning.size === 0) return undefined;
  const products = (shop.products ?? []).filter((product) => product.variants.some((v) => owning.has(v.id)));
  return {
    shops: [
      {
        domain: shop.domain,
        currency: shop.currency,
        locations: shop.locations,
        products: products.map((product) => ({
          ...product,
          // Links as stored (left out); the own levels of the unlinked ones at 0.
          variants: product.variants.map(({ stockItemId: _, inventory: __, ...variant }) => {
            const levels = owning.get(variant.id);
            if (!levels) return variant;
            const zero = { value: 0, unit: variant.unitMeasurement.unit };
            return { ...variant, inventory: levels.map((level) => ({ locationId: level.locationId, quantity: zero })) };
          }),
        })),
      },
    ],
  };
}
