import { type Static, Type } from 'typebox';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';
import { platformId } from './ids.js';

export const MeasurementTypeSchema = Type.Enum(['weight', 'length', 'area', 'volume', 'time']);
export const DisplayStyleSchema = Type.Enum(['number', 'pills', 'dropdown']);

const Rules = Type.Object({
  min: Type.Number(),
  increment: Type.Number(),
  defaultValue: Type.Number(),
  max: Type.Union([Type.Number(), Type.Null()]),
});

/** PRODUCT.md §21: the price per reference quantity that the law asks shops to show beside a price. */
export const UnitPriceSchema = Type.Object(
  {
    amount: Type.String({
      description: "Decimal text with the currency's minor digits, rounded half-even once.",
      examples: ['19.20'],
    }),
    currency: Type.String({ examples: ['EUR'] }),
    reference: Type.Object({ value: Type.Number({ examples: [1] }), unit: Type.String({ examples: ['kg'] }) }),
  },
  {
    description:
      "Price per the shop's reference quantity (1 kg, 100 g, 1 L, …); absent when the shop has unit pricing off, " +
      'and for time.',
  },
);

const Preset = Type.Object({
  value: Type.Number(),
  label: Type.Optional(Type.String()),
  price: Type.Optional(Type.String()),
  unitPrice: Type.Optional(UnitPriceSchema),
});

/** PRODUCT.md §19: one length an area or volume is made from. */
export const DimensionSettingSchema = Type.Object(
  {
    name: Type.String({
      description: "What the customer is asked for; the line's factor carries it.",
      examples: ['length'],
    }),
    unit: Type.String({ description: 'A length unit: the rules or fixed value are in it.', examples: ['m'] }),
    rules: Type.Optional(Rules),
    fixed: Type.Optional(
      Type.Number({ description: 'The value the shop states (a 4 m roll); not asked.', examples: [4] }),
    ),
  },
  { description: 'Exactly one of `rules` (the customer chooses) or `fixed`.' },
);

const OnlineStore = Type.Object({
  displayStyle: DisplayStyleSchema,
  rules: Type.Optional(Rules),
  presets: Type.Optional(Type.Array(Preset)),
  dimensions: Type.Optional(
    Type.Array(DimensionSettingSchema, {
      minItems: 2,
      maxItems: 3,
      description:
        'Area (2) or volume (3) made from lengths the customer states (PRODUCT.md §19); absent for a variant sold ' +
        'by its quantity directly. A line then carries the factors after `dimensions[0]`.',
    }),
  ),
  overagePercent: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Extra sold for waste, in percent of the product of the factors; only with `dimensions`.',
      examples: [10],
    }),
  ),
});

export const VariantSchema = Type.Object({
  id: Type.String(),
  unitMeasurement: Type.Object({ unit: Type.String(), value: Type.Number() }),
  settings: Type.Object({ onlineStore: OnlineStore }),
  unitPrice: Type.Optional(UnitPriceSchema),
  stockItemId: Type.Optional(
    Type.String({
      description:
        "The stock item the variant sells from (PRODUCT.md §20): its stock is the item's. Absent for a variant with its own stock.",
    }),
  ),
});
export type Variant = Static<typeof VariantSchema>;

export const ProductSchema = Type.Object({
  id: Type.String(),
  measurementType: MeasurementTypeSchema,
  variants: Type.Array(VariantSchema),
});
export type Product = Static<typeof ProductSchema>;

export const VariantWithProductSchema = Type.Object({
  ...VariantSchema.properties,
  product: Type.Object({ id: Type.String(), measurementType: MeasurementTypeSchema }),
});

export const PaginationMetaSchema = Type.Object({
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  prevCursor: Type.Union([Type.String(), Type.Null()]),
  hasMore: Type.Boolean(),
});
export type PaginationMeta = Static<typeof PaginationMetaSchema>;

const EXAMPLE_CURSOR = '6-BonDaFvwliX1iVWGI-BVYTiZO2-XJXe6p6BDvWHa_oaC_3C76uglL6vikuyo8q94opBco';
const EXAMPLE_VARIANT = {
  id: '2001',
  unitMeasurement: { unit: 'kg', value: 1 },
  settings: {
    onlineStore: { displayStyle: 'number', rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null } },
  },
  unitPrice: { amount: '24.00', currency: 'USD', reference: { value: 1, unit: 'kg' } },
};

export const ProductParams = Type.Object({ productId: platformId('1001') }, { additionalProperties: false });
export const VariantParams = Type.Object(
  { productId: platformId('1001'), variantId: platformId('2001') },
  { additionalProperties: false },
);

export const ProductQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Variants per page (1–100).', examples: [1] }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        'A `meta.nextCursor` or `meta.prevCursor`. Issued by the server for one shop and sealed, so it has no example: the docs page’s Try it out leaves it empty.',
    }),
  ),
});
export type ProductQuery = Static<typeof ProductQuery>;

/** PRODUCT.md §19's carpet: sold per m² off a 4 m roll, 10 % overage. */
const EXAMPLE_AREA_VARIANT = {
  id: '2101',
  unitMeasurement: { unit: 'm2', value: 1 },
  settings: {
    onlineStore: {
      displayStyle: 'number',
      rules: { min: 0.01, increment: 0.01, defaultValue: 4.4, max: null },
      dimensions: [
        { name: 'length', unit: 'm', rules: { min: 0.1, increment: 0.01, defaultValue: 1, max: 30 } },
        { name: 'width', unit: 'm', fixed: 4 },
      ],
      overagePercent: 10,
    },
  },
};

export const ProductResponse = SuccessEnvelope(Type.Object({ product: ProductSchema }), PaginationMetaSchema, {
  examples: [
    exampleSuccess(
      { product: { id: '1001', measurementType: 'weight', variants: [EXAMPLE_VARIANT] } },
      { nextCursor: EXAMPLE_CURSOR, prevCursor: null, hasMore: true },
    ),
    exampleSuccess(
      { product: { id: '1101', measurementType: 'area', variants: [EXAMPLE_AREA_VARIANT] } },
      { nextCursor: null, prevCursor: null, hasMore: false },
    ),
  ],
});
export const VariantResponse = SuccessEnvelope(Type.Object({ variant: VariantWithProductSchema }), Type.Object({}), {
  examples: [
    exampleSuccess({ variant: { ...EXAMPLE_VARIANT, product: { id: '1001', measurementType: 'weight' } } }),
    exampleSuccess({ variant: { ...EXAMPLE_AREA_VARIANT, product: { id: '1101', measurementType: 'area' } } }),
  ],
});
