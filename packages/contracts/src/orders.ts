import { type Static, Type } from 'typebox';
import { MeasurementTypeSchema } from './catalog.js';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';
import { PlatformId, platformId } from './ids.js';

const closed = { additionalProperties: false } as const;

export const OrderParams = Type.Object({ orderId: platformId('5001') }, closed);

export const OrderItemSchema = Type.Object({
  lineItemId: Type.String(),
  productId: Type.Union([Type.String(), Type.Null()]),
  variantId: Type.Union([Type.String(), Type.Null()]),
  quantity: Type.Integer(),
  measurement: Type.Object({ type: MeasurementTypeSchema, value: Type.Number(), unit: Type.String() }),
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
                value: Type.Number({ exclusiveMinimum: 0 }),
                unit: Type.String({ minLength: 1, maxLength: 16 }),
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
