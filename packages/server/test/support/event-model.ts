import fc from 'fast-check';
import { Dec } from '../../src/domain/decimal.js';

/**
 * The random shop histories of the property-based event tests (PRODUCT.md §14): what happens on
 * the platform and through Tare's API, over a coffee shop starting with 20 kg of 2001 and
 * 2,050 g of 2002 at 70001. Each test runs them on its platform and keeps the exact model.
 */

/** Two variants: by the kg (unit value 1) and by 100 g; measures on exact grids of each unit. */
export const VARIANTS = {
  '2001': { unit: 'kg', unitValue: new Dec(1), measures: [0.25, 0.5, 1.25, 2.5, 0.125] },
  '2002': { unit: 'g', unitValue: new Dec(100), measures: [50, 125, 250, 1000, 333] },
} as const;
export type VariantId = keyof typeof VARIANTS;
export const START_STOCK = { kg: 20, g: 2050 };
const variantArb = fc.constantFrom<VariantId>('2001', '2002');

export type Action =
  | { kind: 'buy'; variant: VariantId; quantity: number; measure: number; ordinary: boolean; bad: number | null }
  | { kind: 'refund'; order: number; quantity: number; restock: boolean }
  | { kind: 'cancel'; order: number }
  | { kind: 'edit'; order: number; quantity: number }
  | { kind: 'adjust'; variant: VariantId; delta: number }
  | { kind: 'type'; variant: VariantId; available: number }
  | { kind: 'deliver'; how: number };

/**
 * `_svc_data` texts a customer can type that Tare must skip with a reason, never book nor fail
 * on: valid JSON of the right shape with a measure Tare would have to round or one past what a
 * level holds (which the sandbox's cart refuses at add, as it can), or a unit that is not the
 * variant's, unknown or of another type (which a cart takes at the variant's price).
 */
export const UNBOOKABLE: { svcData: (unit: string) => string; cartTakes: boolean }[] = [
  { svcData: (unit) => measuredText('0.1234567891', unit), cartTakes: false },
  { svcData: (unit) => measuredText('1e-12', unit), cartTakes: false },
  { svcData: (unit) => measuredText('1e15', unit), cartTakes: false },
  { svcData: () => measuredText('2', 'furlong'), cartTakes: true },
  { svcData: () => measuredText('2', 'm'), cartTakes: true },
];

/** A weight measurement written as JSON text, so that the number keeps every digit the customer typed. */
export function measuredText(value: string, unit: string): string {
  return `{"measurement":{"type":"weight","dimensions":[{"value":${value},"unit":"${unit}"}]}}`;
}

export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        kind: fc.constant('buy' as const),
        variant: variantArb,
        quantity: fc.integer({ min: 1, max: 3 }),
        measure: fc.nat(4),
        ordinary: fc.nat(9).map((n) => n < 3),
        // A second line Tare cannot book, in a third of the orders (an index into UNBOOKABLE).
        bad: fc.option(fc.nat(UNBOOKABLE.length - 1), { freq: 2 }),
      })
      .map((a) => ({ ...a, measure: VARIANTS[a.variant].measures[a.measure]! })),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      order: fc.nat(20),
      quantity: fc.integer({ min: 1, max: 3 }),
      restock: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), order: fc.nat(20) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      order: fc.nat(20),
      quantity: fc.integer({ min: 0, max: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      variant: variantArb,
      delta: fc.constantFrom(-1.5, 0.75, 3, -0.125, 10),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('type' as const),
      variant: variantArb,
      available: fc.integer({ min: 0, max: 40 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deliver' as const), how: fc.nat(1000) }) },
);

/** One single-line order placed in a history, and what has happened to it since. */
export interface PlacedOrder {
  id: string;
  lineId: string;
  variant: VariantId;
  quantity: number;
  perUnit: Dec;
  measured: boolean;
  restocked: number;
  refunded: number;
  cancelled: boolean;
}

/** The `_svc_data` of a line measuring `measure` in the variant's unit. */
export function svcDataOf(variant: VariantId, measure: number): string {
  const { unit } = VARIANTS[variant];
  return JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit, value: measure }] } });
}
