import type { ImportProduct, ImportStockItem } from '../../src/services/catalog-import/import-document.js';
import { variantFixture } from './harness.js';

// A stock item sold through many variants (PRODUCT.md §20), shaped so that one sale moves every
// sibling's whole units: the first variant is sold per 1 kg, sibling i (from 1) per 50·i g (50 g to
// 950 g for 20 siblings), all no larger than the 1 kg a sale takes. For the stock-item tests and
// `npm run bench` (bench/stock-items.ts).

/** Sibling `i`'s unit and unit value. */
export const siblingUnit = (i: number): { unit: 'kg' | 'g'; value: number } =>
  i === 0 ? { unit: 'kg', value: 1 } : { unit: 'g', value: 50 * i };

/** The item (counted in kg, `kg` of it at `locationId`) and a product of its linked variants. */
export function itemWithSiblings(input: {
  itemId: string;
  productId: string;
  variantIds: string[];
  locationId: string;
  kg: number;
}): { stockItem: ImportStockItem; product: ImportProduct } {
  return {
    stockItem: {
      id: input.itemId,
      title: `Item ${input.itemId}`,
      measurementType: 'weight',
      unit: 'kg',
      inventory: [{ locationId: input.locationId, quantity: { value: input.kg, unit: 'kg' } }],
    },
    product: {
      id: input.productId,
      title: `Sold from item ${input.itemId}`,
      measurementType: 'weight',
      variants: input.variantIds.map((id, i) => {
        const { unit, value } = siblingUnit(i);
        return { ...variantFixture(id, unit, value), stockItemId: input.itemId };
      }),
    },
  };
}
