import type { VariantMeasurementConfig } from '@tare/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cartTransformRun } from '../../../../extensions/cart-transform/src/cart_transform_run.js';
import { Dec } from '../../src/domain/decimal.js';
import { cartLine, outputErrors, runInput, svcData } from './support.js';

/**
 * The invariant, for random rules or presets (with and without their own price), unit
 * measurements, prices, currencies of 0, 2 and 3 minor digits, both pricing modes, and random
 * lines (on the grid, off it, out of range, too many decimals, not positive, forged text):
 *
 * 1. A line gets an operation only when its stated measure is one the rules allow and Tare can
 *    book, and then its price is exactly that measure's price (a preset's own price, else
 *    measure ÷ unit value × Shopify's price, half-even once); an allowed line whose price differs
 *    from Shopify's own always gets one.
 * 2. Hence the charged unit price (the operation's, else Shopify's own A) is never below
 *    min(A, the price of the cheapest measure the rules allow): no `_svc_data` makes a line
 *    cheaper than the rules allow.
 *
 * The oracle here is written apart from the contracts' BigInt code, with decimal.js.
 */
const CURRENCIES = { USD: 2, JPY: 0, BHD: 3 } as const;
type Currency = keyof typeof CURRENCIES;

const decimal = (maxInt: number, maxScale: number, minInt = 0) =>
  fc
    .tuple(fc.integer({ min: minInt, max: maxInt }), fc.integer({ min: 0, max: maxScale }))
    .map(([k, d]) => k / 10 ** d);

const money = (currency: Currency) =>
  fc.integer({ min: 1, max: 100_000 }).map((minor) => new Dec(minor).div(10 ** CURRENCIES[currency]).toFixed());

const numberStyle = fc
  .record({ min: decimal(400, 2), increment: decimal(50, 3, 1), steps: fc.option(fc.integer({ min: 0, max: 40 })) })
  .map(({ min, increment, steps }) => ({
    displayStyle: 'number' as const,
    rules: {
      min,
      increment,
      defaultValue: min > 0 ? min : increment,
      max: steps === null ? null : new Dec(min).plus(new Dec(increment).times(Math.max(steps, 1))).toNumber(),
    },
  }));

const presetStyle = (currency: Currency) =>
  fc
    .uniqueArray(fc.record({ value: decimal(5000, 3, 1), price: fc.option(money(currency), { nil: undefined }) }), {
      minLength: 1,
      maxLength: 4,
      selector: (p) => p.value,
    })
    .chain((presets) =>
      fc.constantFrom('pills' as const, 'dropdown' as const).map((displayStyle) => ({ displayStyle, presets })),
    );

const scenario = fc
  .record({
    currency: fc.constantFrom<Currency>('USD', 'JPY', 'BHD'),
    foreignCart: fc.boolean(),
    mode: fc.constantFrom('function' as const, 'base_units' as const),
    unitValue: fc.constantFrom(1, 10, 100, 0.5, 0.25),
    quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(2_000_000_000)),
  })
  .chain((s) =>
    fc.record({
      s: fc.constant(s),
      style: fc.oneof(numberStyle, presetStyle(s.currency)),
      amount: money(s.currency),
      // What the line states: often a measure the rules allow, else anything.
      pick: fc.nat(),
      steps: fc.nat({ max: 60 }),
      measure: fc.oneof(decimal(6000, 4), decimal(10, 11), fc.constantFrom(0, -1, 1e-10)),
      forged: fc.option(fc.constantFrom('{', '{"measurement":{}}', svcData(1, 'g')), { nil: undefined }),
      kind: fc.constantFrom('allowed', 'any'),
    }),
  );

describe('cartTransformRun, for any rules and any line', () => {
  it('when a line is priced, then by exactly the rule price of a measure the rules allow, never below the cheapest', () => {
    fc.assert(
      fc.property(scenario, ({ s, style, amount, pick, steps, measure, forged, kind }) => {
        const config: VariantMeasurementConfig = {
          version: 1,
          type: 'weight',
          unitMeasurement: { unit: 'kg', value: s.unitValue },
          ...style,
          price: amount,
          currency: s.currency,
        };
        const cartCurrency = s.foreignCart ? 'EUR' : s.currency;
        const digits = s.foreignCart ? 2 : CURRENCIES[s.currency];
        const presetsApply = s.mode === 'function' && !s.foreignCart;
        const stated = kind === 'allowed' ? allowedMeasure(config, pick, steps) : measure;
        const line = cartLine({
          svc: forged ?? stated,
          config,
          amount,
          currency: cartCurrency,
          quantity: s.quantity,
        });

        const output = cartTransformRun(runInput([line], s.mode));
        expect(outputErrors(output)).toEqual([]);
        const rulePrice = (m: number) => oraclePrice(config, m, amount, digits, presetsApply);
        const allowed = forged === undefined && isAllowed(config, stated, s.quantity);
        const operation = output.operations[0]?.lineUpdate.price.adjustment.fixedPricePerUnit.amount;

        if (operation !== undefined) {
          expect(allowed).toBe(true);
          expect(new Dec(operation).eq(rulePrice(stated))).toBe(true);
        } else if (allowed) {
          expect(rulePrice(stated).eq(amount)).toBe(true);
        }
        const charged = new Dec(operation ?? amount);
        const floor = Dec.min(amount, cheapestAllowed(config, rulePrice));
        expect(charged.gte(floor)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

/** A measure the settings allow: the `pick`th preset, or `steps` increments above the minimum (within max). */
function allowedMeasure(config: VariantMeasurementConfig, pick: number, steps: number): number {
  if (config.presets) return config.presets[pick % config.presets.length]!.value;
  const { min, increment, max } = config.rules!;
  const top = max === null ? steps : Math.min(steps, new Dec(max).minus(min).div(increment).floor().toNumber());
  const value = new Dec(min).plus(new Dec(increment).times(top));
  return value.gt(0) ? value.toNumber() : increment;
}

function isAllowed(config: VariantMeasurementConfig, m: number, quantity: number): boolean {
  const value = new Dec(String(m));
  if (!value.gt(0) || value.decimalPlaces() > 9) return false;
  if (value.times(quantity).div(config.unitMeasurement.value).gt(1_000_000_000)) return false;
  if (config.presets) return config.presets.some((p) => new Dec(p.value).eq(value));
  const { min, increment, max } = config.rules!;
  return value.gte(min) && (max === null || value.lte(max)) && value.minus(min).mod(increment).isZero();
}

function oraclePrice(
  config: VariantMeasurementConfig,
  m: number,
  amount: string,
  digits: number,
  presetsApply: boolean,
) {
  const preset = presetsApply
    ? config.presets?.find((p) => p.price !== undefined && new Dec(p.value).eq(m))
    : undefined;
  const exact = preset ? new Dec(preset.price!) : new Dec(String(m)).div(config.unitMeasurement.value).times(amount);
  return exact.toDecimalPlaces(digits, Dec.ROUND_HALF_EVEN);
}

/** The price of the cheapest measure the rules allow (a rule price grows with the measure; presets are listed). */
function cheapestAllowed(config: VariantMeasurementConfig, rulePrice: (m: number) => Dec): Dec {
  if (config.presets) return Dec.min(...config.presets.map((p) => rulePrice(p.value)));
  const { min, increment } = config.rules!;
  return rulePrice(min > 0 ? min : increment);
}
