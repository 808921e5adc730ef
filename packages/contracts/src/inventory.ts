import { type Static, Type } from 'typebox';
import { SuccessEnvelope, exampleSuccess } from './envelope.js';
import { PlatformId } from './ids.js';

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
