import { type Static, Type } from 'typebox';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';

/** A shop's scale label format (PRODUCT.md §22) as the import file and the admin state it. */
export const ScaleBarcodeFormatSchema = Type.Object(
  {
    prefix: Type.String({ description: 'GS1 variable-measure prefix: `20`–`29` or `02`.', examples: ['21'] }),
    itemDigits: Type.Integer({ minimum: 1, maximum: 10, examples: [5] }),
    value: Type.Union([Type.Literal('weight'), Type.Literal('price')]),
    valueDigits: Type.Integer({ minimum: 1, maximum: 10, examples: [5] }),
    decimals: Type.Integer({ minimum: 0, maximum: 10, examples: [3] }),
    unit: Type.Optional(Type.String({ description: 'Weight formats only: the unit of the value.', examples: ['kg'] })),
    priceCheckDigit: Type.Optional(
      Type.Boolean({ description: "GS1's price/measure verifier digit before the value." }),
    ),
  },
  { additionalProperties: false },
);

export const ScaleBarcodeParams = Type.Object(
  {
    code: Type.String({
      maxLength: 64,
      description: 'The 13 digits of an EAN-13 scale label, as scanned.',
      examples: ['2110001012341'],
    }),
  },
  { additionalProperties: false },
);

export const ScaleBarcodeSchema = Type.Object({
  productId: Type.String(),
  variantId: Type.String(),
  measurement: Type.Object({
    value: Type.Number({ description: "Exact, in the variant's unit (a price label's, to 9 decimal places)." }),
    unit: Type.String({ description: "The variant's `unitMeasurement.unit`." }),
  }),
  price: Type.Optional(
    Type.Object({
      amount: Type.String({ description: 'As printed, with the format’s decimals.' }),
      currency: Type.String(),
    }),
  ),
  derivedFrom: Type.Union([Type.Literal('weight'), Type.Literal('price')]),
});
export type ScaleBarcode = Static<typeof ScaleBarcodeSchema>;

export const ScaleBarcodeResponse = SuccessEnvelope(ScaleBarcodeSchema, Type.Object({}), {
  examples: [
    exampleSuccess({
      productId: '1001',
      variantId: '2001',
      measurement: { value: 1.234, unit: 'kg' },
      derivedFrom: 'weight',
    }),
    exampleSuccess({
      productId: '1001',
      variantId: '2001',
      measurement: { value: 0.5, unit: 'kg' },
      price: { amount: '12.00', currency: 'USD' },
      derivedFrom: 'price',
    }),
  ],
});
