import { describe, expect, it } from 'vitest';
import type { Shop } from '../../../store/repositories/shops.js';
import type { VariantRecord } from '../../../store/repositories/catalog.js';
import { editedDocument } from './product-edits.js';

const CARPET: VariantRecord = {
  id: '2501',
  productId: '1006',
  position: 0,
  title: 'Wool loop',
  price: '29.00',
  unit: 'm2',
  unitValue: '1',
  displayStyle: 'number',
  rules: { min: 0.01, increment: 0.01, defaultValue: 4.4, max: null },
  presets: null,
  dimensions: [
    { name: 'length', unit: 'm', rules: { min: 0.5, increment: 0.01, defaultValue: 1, max: 50 } },
    { name: 'width', unit: 'm', fixed: 4 },
  ],
  overagePercent: '10',
};

describe('editedDocument', () => {
  it("when the variant form saves a carpet's rules, then its dimensions and overage are kept as stored", () => {
    const rules = { min: 0.5, increment: 0.5, defaultValue: 4.5, max: null };
    const document = editedDocument(
      {
        shop: { domain: 'carpets.example', currency: 'USD' } as Shop,
        product: { id: '1006', title: 'Carpet', measurementType: 'area' },
        variants: [CARPET],
      },
      {
        variants: new Map([
          [
            '2501',
            { unitMeasurement: { unit: 'm2', value: 1 }, settings: { onlineStore: { displayStyle: 'number', rules } } },
          ],
        ]),
      },
    );

    expect(document.shops[0]!.products![0]!.variants[0]!.settings.onlineStore).toEqual({
      displayStyle: 'number',
      rules,
      dimensions: CARPET.dimensions,
      overagePercent: 10,
    });
  });
});
