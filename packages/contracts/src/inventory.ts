import { type Static, Type } from 'typebox';
import { PaginationMetaSchema } from './catalog.js';
import { EXAMPLE_REQUEST_ID, SuccessEnvelope, exampleSuccess } from './envelope.js';
import { PlatformId, platformId } from './ids.js';

const closed = { additionalProperties: false } as const;

const Unit = Type.String({ minLength: 1, maxLength: 16, description: 'A unit of the variant’s measurement type.' });

export const InventoryQuantity = Type.Object(
  { value: Type.Number({ description: 'A finite JSON number (strings are rejected).' }), unit: Unit },
  closed,
);

export const AdjustmentsBody = Type.Object(
  {
    locationId: PlatformId,
    adjustments: Type.Array(Type.Object({ variantId: PlatformId, delta: InventoryQuantity }, closed), {
      minItems: 1,
      maxItems: 100,
      description: '1 to 100 entries, one per variant.',
    }),
  },
  {
    ...closed,
    examples: [{ locationId: '70001', adjustments: [{ variantId: '2001', delta: { value: -0.25, unit: 'kg' } }] }],
  },
);
export type AdjustmentsBody = Static<typeof AdjustmentsBody>;

export const LevelsBody = Type.Object(
  {
    locationId: PlatformId,
    levels: Type.Array(
      Type.Object(
        {
          variantId: PlatformId,
          quantity: Type.Object({ value: Type.Number({ minimum: 0 }), unit: Unit }, closed),
        },
        closed,
      ),
      { minItems: 1, maxItems: 100, description: '1 to 100 entries, one per variant.' },
    ),
  },
  {
    ...closed,
    examples: [{ locationId: '70001', levels: [{ variantId: '2001', quantity: { value: 12.5, unit: 'kg' } }] }],
  },
);
export type LevelsBody = Static<typeof LevelsBody>;

const ResultQuantity = Type.Object({ value: Type.Number(), unit: Type.String() });

export const InventoryResponse = SuccessEnvelope(
  Type.Object({
    operation: Type.Enum(['adjustment', 'set']),
    locationId: Type.String(),
    results: Type.Array(
      Type.Object({
        variantId: Type.String(),
        status: Type.Enum(['updated']),
        previousQuantity: ResultQuantity,
        quantity: ResultQuantity,
      }),
    ),
  }),
  Type.Object({}),
  {
    examples: [
      exampleSuccess({
        operation: 'adjustment',
        locationId: '70001',
        results: [
          {
            variantId: '2001',
            status: 'updated',
            previousQuantity: { value: 12.75, unit: 'kg' },
            quantity: { value: 12.5, unit: 'kg' },
          },
        ],
      }),
    ],
  },
);

// Reading stock (PRODUCT.md §13): levels and the ledger of one level.

const EXAMPLE_LEDGER_CURSOR = 'mC2sQzWq1o0m7V0bQ6t3GkA3y8rZ2cJc5mNn4p0yE1Tq9wXkLrB8dHf2sVa6';
const updatedAt = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
  description: 'When the level last changed (ISO 8601, UTC); null for a level never written.',
});

export const InventoryLevelsQuery = Type.Object({
  locationId: platformId('70001'),
  variantId: Type.Array(platformId('2001'), {
    minItems: 1,
    maxItems: 100,
    description: '1 to 100 distinct variant ids, as a repeated parameter: `variantId=2001&variantId=2002`.',
    examples: [['2001', '2002']],
  }),
});
export type InventoryLevelsQuery = Static<typeof InventoryLevelsQuery>;

export const InventoryLevelSchema = Type.Object({
  variantId: Type.String(),
  locationId: Type.String(),
  quantity: Type.Object(ResultQuantity.properties, {
    description: "The exact total, in the variant's unit (`unitMeasurement.unit`).",
  }),
  platform: Type.Object({
    available: Type.Integer({ description: 'The whole units of `unitMeasurement` Tare projects to the platform.' }),
  }),
  fraction: Type.Object(ResultQuantity.properties, {
    description: 'What Tare keeps beyond the whole units: in [0, unitMeasurement.value).',
  }),
  stockItemId: Type.Optional(
    Type.String({
      description:
        "Present when the variant sells from a stock item: `quantity` is then the item's total in the variant's unit.",
    }),
  ),
  updatedAt,
});
export type InventoryLevel = Static<typeof InventoryLevelSchema>;

export const InventoryLevelsResponse = SuccessEnvelope(
  Type.Object({ levels: Type.Array(InventoryLevelSchema) }),
  Type.Object({}),
  {
    examples: [
      exampleSuccess({
        levels: [
          {
            variantId: '2001',
            locationId: '70001',
            quantity: { value: 12.75, unit: 'kg' },
            platform: { available: 12 },
            fraction: { value: 0.75, unit: 'kg' },
            updatedAt: '2026-11-22T09:30:00.000Z',
          },
          {
            variantId: '2002',
            locationId: '70001',
            quantity: { value: 1250, unit: 'g' },
            platform: { available: 12 },
            fraction: { value: 50, unit: 'g' },
            updatedAt: '2026-11-22T09:30:00.000Z',
          },
        ],
      }),
    ],
  },
);

export const InventoryLedgerQuery = Type.Object({
  locationId: platformId('70001'),
  variantId: platformId('2001'),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Entries per page (1–100).', examples: [20] }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        'A `meta.nextCursor` or `meta.prevCursor` of the same level. Issued by the server for one shop and sealed, so it has no example: the docs page’s Try it out leaves it empty.',
    }),
  ),
});
export type InventoryLedgerQuery = Static<typeof InventoryLedgerQuery>;

const LEDGER_OPERATIONS = [
  'adjustment',
  'set',
  'import',
  'order_edit',
  'sale',
  'order_cancel',
  'refund',
  'platform_adjustment',
] as const;
const LEDGER_REFERENCE_TYPES = ['order', 'refund', 'idempotency_key', 'import', 'platform'] as const;

export const InventoryLedgerEntrySchema = Type.Object({
  id: Type.String({ description: 'Unique; a later entry of a level has a greater id.' }),
  operation: Type.Enum(LEDGER_OPERATIONS),
  delta: Type.Number(),
  quantityBefore: Type.Number(),
  quantityAfter: Type.Number(),
  unit: Type.String({ description: 'The unit of `delta`, `quantityBefore` and `quantityAfter`.' }),
  reference: Type.Union([
    Type.Object(
      { type: Type.Enum(LEDGER_REFERENCE_TYPES), id: Type.Union([Type.String(), Type.Null()]) },
      { description: 'What caused the entry: an order, a refund, an API write (its Idempotency-Key), …' },
    ),
    Type.Null(),
  ]),
  requestId: Type.Union([Type.String(), Type.Null()], {
    description: 'The API request that wrote it; null for imports and platform events.',
  }),
  variantId: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        "In a stock item's ledger only: the variant whose write, order or stock change caused the entry (null for an import, which states the item's level).",
    }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
});
export type InventoryLedgerEntry = Static<typeof InventoryLedgerEntrySchema>;

export const InventoryLedgerResponse = SuccessEnvelope(
  Type.Object({ entries: Type.Array(InventoryLedgerEntrySchema) }),
  PaginationMetaSchema,
  {
    examples: [
      exampleSuccess(
        {
          entries: [
            {
              id: '4127',
              operation: 'adjustment',
              delta: -1.25,
              quantityBefore: 12.75,
              quantityAfter: 11.5,
              unit: 'kg',
              reference: { type: 'idempotency_key', id: 'sale-5001-line-9001' },
              requestId: EXAMPLE_REQUEST_ID,
              createdAt: '2026-11-22T09:30:00.000Z',
            },
            {
              id: '4098',
              operation: 'import',
              delta: 12.75,
              quantityBefore: 0,
              quantityAfter: 12.75,
              unit: 'kg',
              reference: { type: 'import', id: null },
              requestId: null,
              createdAt: '2026-11-21T18:02:11.000Z',
            },
          ],
        },
        { nextCursor: EXAMPLE_LEDGER_CURSOR, prevCursor: null, hasMore: true },
      ),
    ],
  },
);
