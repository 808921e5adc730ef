import type { ImportProduct, ImportShop } from '../../../src/services/catalog-import/import-document.js';
import { shopFixture, variantFixture } from '../../support/harness.js';

/**
 * A wheel of cheese (stock item 6001, 2 kg at location 70001) with variant 2002 (per 100 g) sold
 * from it, 2001 (per kg) holding 3 kg of its own and 2003 (250 g) holding 0 of its own: the
 * shop the import's stock item guards and the admin's link form are tried on.
 */
export function cheeseShop(...otherProducts: ImportProduct[]): ImportShop {
  return shopFixture({
    stockItems: [
      {
        id: '6001',
        title: 'Wheel',
        measurementType: 'weight',
        unit: 'kg',
        inventory: [{ locationId: '70001', quantity: { value: 2, unit: 'kg' } }],
      },
    ],
    products: [
      {
        id: '1001',
        title: 'Cheese',
        measurementType: 'weight',
        variants: [
          {
            ...variantFixture('2001', 'kg', 1),
            inventory: [{ locationId: '70001', quantity: { value: 3, unit: 'kg' } }],
          },
          { ...variantFixture('2002', 'g', 100), stockItemId: '6001' },
          {
            ...variantFixture('2003', 'g', 250),
            inventory: [{ locationId: '70001', quantity: { value: 0, unit: 'kg' } }],
          },
        ],
      },
      ...otherProducts,
    ],
  });
}
