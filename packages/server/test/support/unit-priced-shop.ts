import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { shopFixture, variantFixture } from './harness.js';

type UnitPricing = NonNullable<NonNullable<ImportShop['settings']>['unitPricing']>;

/**
 * Cheese at €4.80 per 250 g (and a 500 g pill at €9.00 of its own), syrup at $3.99 per 12 fl oz,
 * and a time product, in a shop with `unitPricing`.
 */
export function unitPricedShop(unitPricing?: UnitPricing, currency = 'EUR') {
  return shopFixture({
    currency,
    settings: unitPricing ? { unitPricing } : {},
    products: [
      {
        id: '1001',
        title: 'Cheese',
        measurementType: 'weight',
        variants: [
          { ...variantFixture('2001', 'g', 250), price: '4.80' },
          {
            ...variantFixture('2002', 'g', 250),
            price: '4.80',
            settings: {
              onlineStore: {
                displayStyle: 'pills',
                presets: [{ value: 250 }, { value: 500, label: 'Big', price: '9.00' }],
              },
            },
          },
        ],
      },
      {
        id: '1002',
        title: 'Syrup',
        measurementType: 'volume',
        variants: [{ ...variantFixture('2101', 'floz', 12), price: '3.99' }],
      },
      {
        id: '1003',
        title: 'Bike rental',
        measurementType: 'time',
        variants: [{ ...variantFixture('2201', 'h', 1), price: '12.00' }],
      },
    ],
  });
}
