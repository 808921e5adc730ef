import { type Static, Type } from 'typebox';
import { MeasurementTypeSchema } from './catalog.js';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';
import { PlatformId, platformId } from './ids.js';

const closed = { additionalProperties: false } as const;

export const OrderParams = Type.Object({ orderId: platformId('5001') }, closed);

/** PRODUCT.md §19: one length an area or volume was made from, as the line carries it. */
const Factor = Type.Object({ value: Type.Number(), unit: Type.String(), name: Type.String() });

export const OrderItemSchema = Type.Object({
  lineItemId: Type.String(),
  productId: Type.Union([Type.String(), Type.Null()]),
  variantId: Type.Union([Type.String(), Type.Null()]),
  quantity: Type.Integer(),
  measurement: Type.Object({
    type: MeasurementTypeSchema,
    value: Type.Number(),
    unit: Type.String(),
    dimensions: Type.Optional(
      Type.Array(Factor, {
        description:
          'The factors the value was made from (area: 2, volume: 3), with their names, when the line has them; ' +
          'not the value itself (PRODUCT.md §19).',
      }),
    ),
  }),
  unitPrice: Type.String({ description: 'Formatted price per measurement unit, e.g. "$24.00 per kg".' }),
});
export type OrderItem = Static<typeof OrderItemSchema>;

export const OrderEditBody = Type.Object(
  {
    edits: Type.Array(
      Type.Object(
        {
          lineItemId: PlatformId,
          // The maximum is the platforms' 32-bit line quantity; it also rejects JSON 1e999
          // (Infinity), which the validator's integer check lets through.
          quantity: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 2147483647, description: '0 removes the line.' }),
          ),
          measurement: Type.Optional(
            Type.Object(
              {
                type: MeasurementTypeSchema,
                value: Type.Optional(
                  Type.Number({
                    exclusiveMinimum: 0,
                    description: 'Required unless `dimensions` is given (then Tare computes it).',
                  }),
                ),
                unit: Type.String({ minLength: 1, maxLength: 16 }),
                dimensions: Type.Optional(
                  Type.Array(
                    Type.Object(
                      {
                        value: Type.Number(),
                        unit: Type.String({ minLength: 1, maxLength: 16 }),
                        name: Type.Optional(Type.String({ maxLength: 60 })),
                      },
                      closed,
                    ),
                    {
                      minItems: 1,
                      maxItems: 3,
                      description:
                        "The factors of a variant made from dimensions (PRODUCT.md §19), in the variant's order; " +
                        'the value is recomputed from them.',
                    },
                  ),
                ),
              },
              closed,
            ),
          ),
          variantId: Type.Optional(PlatformId),
        },
        closed,
      ),
      { minItems: 1, maxItems: 100 },
    ),
    notifyCustomer: Type.Optional(Type.Boolean()),
    staffNote: Type.Optional(Type.String({ maxLength: 5000 })),
  },
  {
    ...closed,
    examples: [
      {
        edits: [{ lineItemId: '9001', measurement: { type: 'weight', value: 1.1, unit: 'kg' } }],
        notifyCustomer: false,
      },
      {
        edits: [
          {
            lineItemId: '9002',
            measurement: {
              type: 'area',
              unit: 'm2',
              dimensions: [
                { value: 2.5, unit: 'm', name: 'length' },
                { value: 4, unit: 'm', name: 'width' },
              ],
            },
          },
        ],
      },
    ],
  },
);
export type OrderEditBody = Static<typeof OrderEditBody>;

export const OrderData = Type.Object({ id: Type.String(), items: Type.Array(OrderItemSchema) });

/**
 * GET and PATCH /orders/{orderId}: the envelope around `{ id, items }`, with `id` and `items`
 * repeated at the top level as in the spec's sample (PRODUCT.md §2).
 */
const EXAMPLE_ORDER = {
  id: '5001',
  items: [
    {
      lineItemId: '9001',
      productId: '1001',
      variantId: '2001',
      quantity: 2,
      measurement: { type: 'weight', value: 1.25, unit: 'kg' },
      unitPrice: '$24.00 per kg',
    },
  ],
};

export const OrderResponse = Type.Object(
  {
    ...SuccessEnvelope(OrderData, Type.Object({})).properties,
    id: Type.String(),
    items: Type.Array(OrderItemSchema),
  },
  { examples: [{ ...exampleSuccess(EXAMPLE_ORDER), ...EXAMPLE_ORDER }] },
);
