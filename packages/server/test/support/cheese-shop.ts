import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { shopFixture, variantFixture } from './harness.js';

// A shop selling one Comté wheel three ways (PRODUCT.md §20's example): per 100 g loose, as a
// 250 g pack and per 1 kg, all from stock item 5001 counted in kg; plus coffee of its own stock.

export const WHEEL = '5001';
export const LOOSE = '2101';
export const PACK = '2102';
export const KILO = '2103';
export const COFFEE = '2001';
export const SIBLINGS = [LOOSE, PACK, KILO];

/** The cheese shop with `kg` of the wheel at location 70001 (none stated when undefined). */
export function cheeseShop(kg?: number, overrides: Partial<ImportShop> = {}): ImportShop {
  const linked = (id: string, unit: string, value: number) => ({
    ...variantFixture(id, unit, value),
    stockItemId: WHEEL,
  });
  return shopFixture({
    stockItems: [
      {
        id: WHEEL,
        title: 'Comté wheel',
        measurementType: 'weight',
        unit: 'kg',
        ...(kg === undefined ? {} : { inventory: [{ locationId: '70001', quantity: { value: kg, unit: 'kg' } }] }),
      },
    ],
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: [
          {
            ...variantFixture(COFFEE, 'kg', 1),
            inventory: [{ locationId: '70001', quantity: { value: 5, unit: 'kg' } }],
          },
        ],
      },
      {
        id: '1101',
        title: 'Comté',
        measurementType: 'weight',
        variants: [linked(LOOSE, 'g', 100), linked(PACK, 'g', 250), linked(KILO, 'kg', 1)],
      },
    ],
    ...overrides,
  });
}
