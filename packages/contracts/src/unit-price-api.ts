import { Type } from 'typebox';
import { UnitPriceSchema } from './catalog.js';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';

/** `GET /api/v1/units`: the unit catalogue (PRODUCT.md §5) with each unit's Rec 20 code (§21). */
export const UnitSchema = Type.Object({
  id: Type.String({ description: 'Case-sensitive unit id.', examples: ['kg'] }),
  type: Type.String({ examples: ['weight'] }),
  factor: Type.String({
    description: "Exact size of one of this unit in its type's base unit (kg, m, m2, L, s), as decimal text.",
    examples: ['0.001'],
  }),
  rec20: Type.String({ description: 'UN/ECE Recommendation 20 common code.', examples: ['KGM'] }),
});

export const UnitsResponse = SuccessEnvelope(Type.Object({ units: Type.Array(UnitSchema) }), Type.Object({}), {
  examples: [
    exampleSuccess({
      units: [
        { id: 'g', type: 'weight', factor: '0.001', rec20: 'GRM' },
        { id: 'kg', type: 'weight', factor: '1', rec20: 'KGM' },
      ],
    }),
  ],
});

const QuantitativeValue = Type.Object({
  '@type': Type.Literal('QuantitativeValue'),
  value: Type.Number(),
  unitCode: Type.String({ description: 'UN/ECE Recommendation 20 code.' }),
});

/** schema.org's Offer with the unit price Google reads from `priceSpecification`. */
const OfferSchema = Type.Object({
  '@context': Type.Literal('https://schema.org'),
  '@type': Type.Literal('Offer'),
  price: Type.String({ description: 'The price of the unit measurement.' }),
  priceCurrency: Type.String(),
  priceSpecification: Type.Optional(
    Type.Object(
      {
        '@type': Type.Literal('UnitPriceSpecification'),
        price: Type.String(),
        priceCurrency: Type.String(),
        referenceQuantity: Type.Object({
          ...QuantitativeValue.properties,
          valueReference: QuantitativeValue,
        }),
      },
      {
        description:
          'The price per the unit measurement (referenceQuantity), and the reference the law states it per ' +
          '(referenceQuantity.valueReference): Google Merchant Center reads these as unit_pricing_measure and ' +
          'unit_pricing_base_measure.',
      },
    ),
  ),
});

const MerchantCenterSchema = Type.Object(
  {
    unit_pricing_measure: Type.String({ examples: ['250 g'] }),
    unit_pricing_base_measure: Type.Optional(Type.String({ examples: ['1 kg'] })),
    note: Type.Optional(Type.String({ description: 'Why the base measure is left out, when it is.' })),
  },
  {
    description:
      "Google Merchant Center's attributes; a unit Google does not read is stated in kg, l, m or sqm, exactly.",
  },
);

export const StructuredDataResponse = SuccessEnvelope(
  Type.Object({
    jsonLd: OfferSchema,
    merchantCenter: Type.Union([MerchantCenterSchema, Type.Null()], {
      description: 'Null when the shop has unit pricing off, and for time.',
    }),
    unitPrice: Type.Optional(UnitPriceSchema),
  }),
  Type.Object({}),
  {
    examples: [
      exampleSuccess({
        jsonLd: {
          '@context': 'https://schema.org',
          '@type': 'Offer',
          price: '4.80',
          priceCurrency: 'EUR',
          priceSpecification: {
            '@type': 'UnitPriceSpecification',
            price: '4.80',
            priceCurrency: 'EUR',
            referenceQuantity: {
              '@type': 'QuantitativeValue',
              value: 250,
              unitCode: 'GRM',
              valueReference: { '@type': 'QuantitativeValue', value: 1, unitCode: 'KGM' },
            },
          },
        },
        merchantCenter: { unit_pricing_measure: '250 g', unit_pricing_base_measure: '1 kg' },
        unitPrice: { amount: '19.20', currency: 'EUR', reference: { value: 1, unit: 'kg' } },
      }),
    ],
  },
);
