import { type Static, Type } from 'typebox';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';
import { platformId } from './ids.js';

// Stock items (PRODUCT.md §20): one stock shared by several variants.

const closed = { additionalProperties: false } as const;
const Quantity = Type.Object({ value: Type.Number(), unit: Type.String() });

export const StockItemParams = Type.Object({ stockItemId: platformId('6001') }, closed);
export type StockItemParams = Static<typeof StockItemParams>;

export const StockItemLevelsQuery = Type.Object({ locationId: platformId('70001') }, closed);
export type StockItemLevelsQuery = Static<typeof StockItemLevelsQuery>;

export const StockItemVariantLevelSchema = Type.Object({
  variantId: Type.String(),
  unitMeasurement: Type.Object({ value: Type.Number(), unit: Type.String() }),
  platform: Type.Object({
    available: Type.Integer({ description: "floor(total ÷ the variant's unit measurement): its whole units." }),
  }),
  fraction: Type.Object(Quantity.properties, {
    description: "What remains of the total beyond those whole units, in the variant's unit.",
  }),
});
export type StockItemVariantLevel = Static<typeof StockItemVariantLevelSchema>;

export const StockItemLevelSchema = Type.Object({
  stockItemId: Type.String(),
  title: Type.String(),
  locationId: Type.String(),
  quantity: Type.Object(Quantity.properties, { description: "The item's exact total, in the item's unit." }),
  variants: Type.Array(StockItemVariantLevelSchema, { description: 'Every variant linked to the item, by id.' }),
  updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'ISO 8601 (UTC); null when the level was never written (it reads 0).',
  }),
});
export type StockItemLevel = Static<typeof StockItemLevelSchema>;

export const StockItemLevelsResponse = SuccessEnvelope(StockItemLevelSchema, Type.Object({}), {
  examples: [
    exampleSuccess({
      stockItemId: '6001',
      title: 'Comté wheel',
      locationId: '70001',
      quantity: { value: 4.25, unit: 'kg' },
      variants: [
        {
          variantId: '2701',
          unitMeasurement: { value: 100, unit: 'g' },
          platform: { available: 42 },
          fraction: { value: 50, unit: 'g' },
        },
        {
          variantId: '2702',
          unitMeasurement: { value: 250, unit: 'g' },
          platform: { available: 17 },
          fraction: { value: 0, unit: 'g' },
        },
        {
          variantId: '2703',
          unitMeasurement: { value: 1, unit: 'kg' },
          platform: { available: 4 },
          fraction: { value: 0.25, unit: 'kg' },
        },
      ],
      updatedAt: '2026-11-22T09:30:00.000Z',
    }),
  ],
});
