import {
  DisplayStyleSchema,
  MeasurementTypeSchema,
  PLATFORM_ID_PATTERN,
  ScaleBarcodeFormatSchema,
} from '@tare/contracts';
import { type Static, Type } from 'typebox';

/** The catalog import file (PRODUCT.md §11). Every object is closed: a typo is an error. */
const Id = Type.String({ pattern: PLATFORM_ID_PATTERN });
const Money = Type.String({ pattern: '^[0-9]{1,15}(\\.[0-9]{1,6})?$' });
const Quantity = Type.Object({ value: Type.Number(), unit: Type.String() }, { additionalProperties: false });
const closed = { additionalProperties: false } as const;

const Rules = Type.Object(
  {
    min: Type.Number({ minimum: 0 }),
    increment: Type.Number({ exclusiveMinimum: 0 }),
    defaultValue: Type.Number({ exclusiveMinimum: 0 }),
    max: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()]),
  },
  closed,
);

/** PRODUCT.md §19: one length an area or volume is made from (exactly one of rules or fixed). */
const Dimension = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60 }),
    unit: Type.String(),
    rules: Type.Optional(Rules),
    fixed: Type.Optional(Type.Number()),
  },
  closed,
);

const Variant = Type.Object(
  {
    id: Id,
    title: Type.String({ minLength: 1 }),
    price: Money,
    unitMeasurement: Type.Object({ unit: Type.String(), value: Type.Number({ exclusiveMinimum: 0 }) }, closed),
    settings: Type.Object(
      {
        onlineStore: Type.Object(
          {
            displayStyle: DisplayStyleSchema,
            rules: Type.Optional(Rules),
            presets: Type.Optional(
              Type.Array(
                Type.Object(
                  {
                    value: Type.Number({ exclusiveMinimum: 0 }),
                    label: Type.Optional(Type.String({ minLength: 1 })),
                    price: Type.Optional(Money),
                  },
                  closed,
                ),
                { minItems: 1, maxItems: 100 },
              ),
            ),
            dimensions: Type.Optional(Type.Array(Dimension, { minItems: 2, maxItems: 3 })),
            // Its bounds are checked with the dimensions (contracts' dimensionsSettingsIssues), all at once.
            overagePercent: Type.Optional(Type.Number()),
          },
          closed,
        ),
      },
      closed,
    ),
    inventory: Type.Optional(Type.Array(Type.Object({ locationId: Id, quantity: Quantity }, closed))),
    // The stock item the variant sells from (PRODUCT.md §20); absent keeps the link, null removes it.
    stockItemId: Type.Optional(Type.Union([Id, Type.Null()])),
    // The item number (PLU) on the shop's scale labels (PRODUCT.md §22); absent keeps it, null clears it.
    scaleItem: Type.Optional(Type.Union([Type.String({ pattern: '^[0-9]{1,10}$' }), Type.Null()])),
  },
  closed,
);

const Product = Type.Object(
  {
    id: Id,
    title: Type.String({ minLength: 1 }),
    measurementType: MeasurementTypeSchema,
    variants: Type.Array(Variant),
  },
  closed,
);

/** One stock shared by the variants linked to it (PRODUCT.md §20); its levels are stated here only. */
const StockItem = Type.Object(
  {
    id: Id,
    title: Type.String({ minLength: 1 }),
    measurementType: MeasurementTypeSchema,
    unit: Type.String(),
    inventory: Type.Optional(Type.Array(Type.Object({ locationId: Id, quantity: Quantity }, closed))),
  },
  {
    ...closed,
    examples: [
      {
        id: '5001',
        title: 'Comté wheel',
        measurementType: 'weight',
        unit: 'kg',
        inventory: [{ locationId: '70001', quantity: { value: 12.5, unit: 'kg' } }],
      },
    ],
  },
);

const LineItem = Type.Object(
  {
    id: Id,
    productId: Type.Union([Id, Type.Null()]),
    variantId: Type.Union([Id, Type.Null()]),
    quantity: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    price: Money,
    fulfilled: Type.Optional(Type.Boolean()),
    properties: Type.Optional(
      Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), value: Type.String() }, closed)),
    ),
  },
  closed,
);

const Order = Type.Object(
  {
    id: Id,
    status: Type.Enum(['open', 'closed', 'cancelled']),
    locationId: Id,
    lineItems: Type.Array(LineItem),
  },
  closed,
);

/**
 * The shop's Shopify store (PRODUCT.md §16). The values' rules (a `*.myshopify.com` host, an
 * http(s) URL, a YYYY-MM version) are checked by the validator, with messages that say them.
 */
const ShopifyPlatform = Type.Object(
  {
    kind: Type.Literal('shopify'),
    store: Type.String({ minLength: 1, maxLength: 255 }),
    accessToken: Type.String({ minLength: 1, maxLength: 1000 }),
    clientSecret: Type.String({ minLength: 1, maxLength: 1000 }),
    apiVersion: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    adminApiUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  closed,
);

/** What a type's unit price is stated per (`{ value: 100, unit: 'g' }`); units checked by the validator. */
const Reference = Type.Object({ value: Type.Number({ exclusiveMinimum: 0 }), unit: Type.String() }, closed);
const UnitPricing = Type.Object(
  {
    enabled: Type.Boolean(),
    reference: Type.Optional(
      Type.Object(
        {
          weight: Type.Optional(Reference),
          volume: Type.Optional(Reference),
          length: Type.Optional(Reference),
          area: Type.Optional(Reference),
        },
        closed,
      ),
    ),
  },
  closed,
);

const Shop = Type.Object(
  {
    domain: Type.String({
      pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$',
      maxLength: 253,
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    defaultLocale: Type.Optional(Type.String({ minLength: 2, maxLength: 35 })),
    addonActive: Type.Optional(Type.Boolean()),
    platform: Type.Optional(ShopifyPlatform),
    settings: Type.Optional(
      Type.Object(
        {
          mergeMatchingLineItems: Type.Optional(Type.Boolean()),
          // How a stock figure typed on the platform is taken (PRODUCT.md §14).
          platformStockChanges: Type.Optional(Type.Union([Type.Literal('adopt'), Type.Literal('override')])),
          rateLimit: Type.Optional(
            Type.Object(
              {
                enabled: Type.Optional(Type.Boolean()),
                requestsPerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
              },
              closed,
            ),
          ),
          // The sandbox storefront (PRODUCT.md §18): served for a sandbox shop that enables it.
          storefront: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()) }, closed)),
          // The formats of the labels the shop's scales print (PRODUCT.md §22); the list replaces the stored one.
          scaleBarcodes: Type.Optional(Type.Array(ScaleBarcodeFormatSchema, { maxItems: 11 })),
          // Prices per reference quantity (PRODUCT.md §21); the object replaces the stored one.
          unitPricing: Type.Optional(UnitPricing),
        },
        closed,
      ),
    ),
    labels: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.String({ maxLength: 1000 })),
      ),
    ),
    locations: Type.Optional(Type.Array(Type.Object({ id: Id, name: Type.String({ minLength: 1 }) }, closed))),
    stockItems: Type.Optional(Type.Array(StockItem)),
    products: Type.Optional(Type.Array(Product)),
    orders: Type.Optional(Type.Array(Order)),
  },
  closed,
);

export const ImportDocument = Type.Object({ shops: Type.Array(Shop, { minItems: 1 }) }, closed);
export type ImportDocument = Static<typeof ImportDocument>;
export type ImportShop = Static<typeof Shop>;
export type ImportVariant = Static<typeof Variant>;
export type ImportProduct = Static<typeof Product>;
export type ImportStockItem = Static<typeof StockItem>;
