/**
 * The sandbox shop (PRODUCT.md §15): the embedded platform as a storefront under /sandbox.
 * Cart answers follow Shopify's Ajax Cart API (snake_case, numeric variant and product ids,
 * money in minor units); order answers keep Shopify's field names, with ids as numeric strings
 * as everywhere else in Tare, so that they can be passed straight to `/api/v1/orders/{id}`.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';
import { PlatformId, platformId } from './ids.js';

const closed = { additionalProperties: false } as const;

/** The platforms' 32-bit line quantity. */
const MAX_QUANTITY = 2147483647;

/** How many lines a cart holds at most (Shopify's limit). */
export const SANDBOX_CART_MAX_LINES = 250;

export const SandboxCartParams = Type.Object(
  {
    token: Type.String({
      pattern: '^[A-Za-z0-9_-]{1,100}$',
      description: 'The cart token `POST /sandbox/carts` answered.',
      examples: ['3f6a0c1e9b2d4e5f8a7b6c5d4e3f2a1b'],
    }),
  },
  closed,
);
export type SandboxCartParams = Static<typeof SandboxCartParams>;

export const SandboxOrderParams = Type.Object({ id: platformId('900000001') }, closed);
export type SandboxOrderParams = Static<typeof SandboxOrderParams>;

const PropertyName = Type.String({ minLength: 1, maxLength: 255 });
const PropertyValue = Type.String({ maxLength: 65535 });

const SVC_DATA_EXAMPLE = '{"measurement":{"type":"weight","dimensions":[{"unit":"kg","value":2.5}]}}';

export const SandboxCartAddBody = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          id: Type.Union(
            [
              Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
              Type.String({ pattern: '^(?:[0-9]{1,20}|gid://[A-Za-z0-9-]+/ProductVariant/[0-9]{1,20})$' }),
            ],
            {
              description:
                'The variant: its numeric id as a JSON number or a string, or its `gid://shopify/ProductVariant/N` form.',
            },
          ),
          quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY }),
          properties: Type.Optional(
            Type.Union(
              [
                Type.Record(Type.String(), PropertyValue, { maxProperties: 100 }),
                Type.Array(Type.Object({ name: PropertyName, value: PropertyValue }, closed), { maxItems: 100 }),
              ],
              {
                description:
                  'Line item properties: an object `{ name: value }` or a list `[{ name, value }]`, values strings. ' +
                  '`_svc_data` makes the line measured.',
              },
            ),
          ),
        },
        closed,
      ),
      { minItems: 1, maxItems: SANDBOX_CART_MAX_LINES },
    ),
  },
  {
    ...closed,
    examples: [
      { items: [{ id: 2001, quantity: 1, properties: { _svc_data: SVC_DATA_EXAMPLE } }] },
      // The list form of `properties` is left out: the document generator reads a list under a key
      // named `properties` as the schema keyword and turns it into an object.
      { items: [{ id: 'gid://shopify/ProductVariant/2001', quantity: 2, properties: { Gift: 'yes' } }] },
    ],
  },
);
export type SandboxCartAddBody = Static<typeof SandboxCartAddBody>;

export const SandboxCartChangeBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 200, description: 'The line’s `key` from the cart.' }),
    quantity: Type.Integer({ minimum: 0, maximum: MAX_QUANTITY, description: '0 removes the line.' }),
  },
  { ...closed, examples: [{ key: '2001:6f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f', quantity: 3 }] },
);
export type SandboxCartChangeBody = Static<typeof SandboxCartChangeBody>;

/** Who checks out, as a checkout asks: both optional (a guest may give neither). */
const CheckoutCustomer = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'The customer’s name.' }),
    ),
    email: Type.Optional(
      Type.String({ maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$', description: 'The customer’s e-mail address.' }),
    ),
  },
  { ...closed, description: 'Who places the order, shown in the merchant’s admin; a guest gives neither.' },
);

export const SandboxCheckoutBody = Type.Object(
  {
    locationId: Type.Optional(platformId('70001')),
    customer: Type.Optional(CheckoutCustomer),
  },
  {
    ...closed,
    description: 'The location the order is sold from; the shop’s first location (by id) when absent.',
    examples: [{}, { locationId: '70001' }, { customer: { name: 'Ada Lovelace', email: 'ada@example.com' } }],
  },
);
export type SandboxCheckoutBody = Static<typeof SandboxCheckoutBody>;

export const SandboxCancelBody = Type.Object(
  {
    restock: Type.Optional(
      Type.Boolean({ description: 'Put every unit not yet refunded back on the platform’s stock (default false).' }),
    ),
  },
  { ...closed, examples: [{ restock: true }, { restock: false }] },
);
export type SandboxCancelBody = Static<typeof SandboxCancelBody>;

const RestockType = Type.Union([Type.Literal('no_restock'), Type.Literal('cancel'), Type.Literal('return')], {
  description: '`return` and `cancel` put the units back on stock; `no_restock` does not.',
});

export const SandboxRefundBody = Type.Object(
  {
    lines: Type.Array(
      Type.Object(
        {
          lineItemId: PlatformId,
          quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY }),
          restockType: RestockType,
        },
        closed,
      ),
      { minItems: 1, maxItems: SANDBOX_CART_MAX_LINES, description: 'At most one entry per line.' },
    ),
  },
  { ...closed, examples: [{ lines: [{ lineItemId: '900000002', quantity: 1, restockType: 'return' }] }] },
);
export type SandboxRefundBody = Static<typeof SandboxRefundBody>;

export const SandboxStockBody = Type.Object(
  {
    locationId: platformId('70001'),
    variantId: platformId('2001'),
    available: Type.Integer({
      minimum: 0,
      maximum: MAX_QUANTITY,
      description: 'The whole units the merchant types into the platform’s admin.',
    }),
  },
  { ...closed, examples: [{ locationId: '70001', variantId: '2001', available: 15 }] },
);
export type SandboxStockBody = Static<typeof SandboxStockBody>;

export const SandboxStockQuery = Type.Object(
  { locationId: platformId('70001'), variantId: platformId('2001') },
  closed,
);
export type SandboxStockQuery = Static<typeof SandboxStockQuery>;

// ---- Answers ----

const CartItem = Type.Object({
  key: Type.String({ description: 'Stable for the line: pass it to `change`.' }),
  variant_id: Type.Integer(),
  product_id: Type.Integer(),
  quantity: Type.Integer(),
  properties: Type.Record(Type.String(), Type.String()),
  price: Type.Integer({ description: 'Unit price in the currency’s minor unit (cents).' }),
  line_price: Type.Integer({ description: '`price` × `quantity`, in the minor unit.' }),
});

export const SandboxCart = Type.Object({
  token: Type.String(),
  items: Type.Array(CartItem),
  item_count: Type.Integer({ description: 'The sum of the lines’ quantities.' }),
  total_price: Type.Integer({ description: 'In the currency’s minor unit.' }),
  currency: Type.String(),
});
export type SandboxCart = Static<typeof SandboxCart>;

const OrderLine = Type.Object({
  id: Type.String(),
  variant_id: Type.Union([Type.String(), Type.Null()]),
  product_id: Type.Union([Type.String(), Type.Null()]),
  quantity: Type.Integer(),
  price: Type.Integer({ description: 'Unit price as charged, in the minor unit.' }),
  line_price: Type.Integer(),
  properties: Type.Record(Type.String(), Type.String()),
  fulfilled: Type.Boolean(),
  refunded_quantity: Type.Integer({ description: 'Units refunded so far, restocked or not.' }),
});

const RefundLine = Type.Object({
  line_item_id: Type.String(),
  quantity: Type.Integer(),
  restock_type: RestockType,
});

const Refund = Type.Object({ id: Type.String(), refund_line_items: Type.Array(RefundLine) });

export const SandboxOrder = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'The order’s name, numbered per shop from #1001 as Shopify’s are.' }),
  customer: Type.Union(
    [
      Type.Object({ name: Type.Union([Type.String(), Type.Null()]), email: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ],
    {
      description: 'Who placed it, as the checkout was told; null for a guest who gave neither.',
    },
  ),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Literal('cancelled')]),
  location_id: Type.String(),
  line_items: Type.Array(OrderLine),
  refunds: Type.Array(Refund),
  total_price: Type.Integer({ description: 'In the currency’s minor unit.' }),
  currency: Type.String(),
});
export type SandboxOrder = Static<typeof SandboxOrder>;

export const SandboxStock = Type.Object({
  locationId: Type.String(),
  variantId: Type.String(),
  available: Type.Integer({ description: 'The platform’s whole units (0 for a level it never stocked).' }),
});
export type SandboxStock = Static<typeof SandboxStock>;

const EXAMPLE_CART: SandboxCart = {
  token: '3f6a0c1e9b2d4e5f8a7b6c5d4e3f2a1b',
  items: [
    {
      key: '2001:6f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f',
      variant_id: 2001,
      product_id: 1001,
      quantity: 1,
      properties: { _svc_data: SVC_DATA_EXAMPLE },
      price: 6000,
      line_price: 6000,
    },
  ],
  item_count: 1,
  total_price: 6000,
  currency: 'USD',
};

const EXAMPLE_ORDER: SandboxOrder = {
  id: '900000001',
  name: '#1001',
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  status: 'open',
  location_id: '70001',
  line_items: [
    {
      id: '900000002',
      variant_id: '2001',
      product_id: '1001',
      quantity: 1,
      price: 6000,
      line_price: 6000,
      properties: { _svc_data: SVC_DATA_EXAMPLE },
      fulfilled: false,
      refunded_quantity: 0,
    },
  ],
  refunds: [],
  total_price: 6000,
  currency: 'USD',
};

const EXAMPLE_REFUND = {
  id: '900000003',
  order_id: '900000001',
  refund_line_items: [{ line_item_id: '900000002', quantity: 1, restock_type: 'return' as const }],
};

const EXAMPLE_STOCK: SandboxStock = { locationId: '70001', variantId: '2001', available: 15 };

/** The envelope around `data`, with `data`'s fields repeated at the top level (PRODUCT.md §2). */
function answer<Data extends ReturnType<typeof Type.Object>>(data: Data, example: Static<Data>) {
  return Type.Object(
    { ...SuccessEnvelope(data, Type.Object({})).properties, ...(data.properties as Record<string, TSchema>) },
    { examples: [{ ...exampleSuccess(example), ...(example as object) }] },
  );
}

export const SandboxCartResponse = answer(SandboxCart, EXAMPLE_CART);
export const SandboxOrderResponse = answer(Type.Object({ order: SandboxOrder }), { order: EXAMPLE_ORDER });
export const SandboxRefundResponse = answer(
  Type.Object({
    refund: Type.Object({ id: Type.String(), order_id: Type.String(), refund_line_items: Type.Array(RefundLine) }),
    order: SandboxOrder,
  }),
  {
    refund: EXAMPLE_REFUND,
    order: {
      ...EXAMPLE_ORDER,
      line_items: EXAMPLE_ORDER.line_items.map((line) => ({ ...line, refunded_quantity: 1 })),
      refunds: [{ id: EXAMPLE_REFUND.id, refund_line_items: EXAMPLE_REFUND.refund_line_items }],
    },
  },
);
export const SandboxStockResponse = answer(SandboxStock, EXAMPLE_STOCK);
