/**
 * The promise of line-price.ts and unit-price.ts: every amount read exactly from its decimal text
 * (a JSON number from its shortest form), the price computed as one exact fraction and rounded
 * half-even to the currency's minor unit once. The worked examples beside each file pin known
 * cases; here random prices, measures, unit measurements, unit pairs, references and currencies
 * of 0, 2 and 3 minor digits try to break it against an oracle written apart from the BigInt
 * code, with decimal.js (the server's decimal library) at a precision no input here exhausts.
 */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyDigits, lineUnitPrice } from './line-price.js';
import { unitPrice } from './unit-price.js';
import { MEASUREMENT_TYPES, UNIT_CATALOGUE } from './units.js';

const D = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -200, toExpPos: 200 });

/** A positive decimal k ÷ 10^d, as a JSON number (its shortest form is what is read). */
const positive = (maxInt: number, maxScale: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: maxInt }), fc.integer({ min: 0, max: maxScale }))
    .map(([k, d]) => Number(new D(k).div(new D(10).pow(d)).toString()));

/** Decimal text with up to `maxScale` decimals, trailing zeros kept (`'4.800'`). */
const decimalText = (maxInt: number, maxScale: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxInt }), fc.integer({ min: 0, max: maxScale }))
    .map(([k, d]) => new D(k).div(new D(10).pow(d)).toFixed(d));

const currency = fc.constantFrom('USD', 'EUR', 'JPY', 'BHD', 'KWD', 'CLP');

/** Rounded half-even to the currency's minor digits, as decimal text with exactly that many. */
const rounded = (exact: Decimal, code: string) => {
  const digits = currencyDigits(code);
  return exact.toDecimalPlaces(digits, Decimal.ROUND_HALF_EVEN).toFixed(digits);
};

describe('lineUnitPrice, for any price, measure and unit measurement', () => {
  it('when a line is priced, then it is measure ÷ unit value × price, rounded half-even once', () => {
    fc.assert(
      fc.property(
        decimalText(10_000_000, 6),
        positive(10_000_000, 9),
        fc.oneof(positive(1000, 3), fc.constantFrom(1, 100, 250, 0.5)),
        currency,
        fc.boolean(),
        (price, measure, unitValue, code, asText) => {
          const measurement = asText ? new D(String(measure)).toFixed() : measure;
          // Divide last: a quotient that does not terminate, cut at any precision, can turn an
          // exact half (9503455 ÷ 3 × 221588.7 = 701952746319.5) into …49999 and round it the wrong way.
          const exact = new D(String(measure)).times(price).div(String(unitValue));

          expect(lineUnitPrice({ price, unitValue }, measurement, currencyDigits(code))).toBe(rounded(exact, code));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('when the exact price is a half cent after a division that does not terminate, then it rounds to even', () => {
    expect(lineUnitPrice({ price: '221588.7', unitValue: 3 }, 9503455, currencyDigits('CLP'))).toBe('701952746320');
    expect(lineUnitPrice({ price: '0.5', unitValue: 3 }, 3, currencyDigits('JPY'))).toBe('0');
  });

  it('when the measure equals a preset with its own price, then that price rounded once; else the rule price', () => {
    fc.assert(
      fc.property(
        decimalText(10_000_000, 6),
        decimalText(10_000_000, 6),
        positive(10_000, 3),
        positive(10_000, 3),
        currency,
        (price, presetPrice, preset, measure, code) => {
          const variant = { price, unitValue: 1, presets: [{ value: preset, price: presetPrice }] };
          const exact = new D(String(measure)).eq(String(preset))
            ? new D(presetPrice)
            : new D(String(measure)).times(price);

          expect(lineUnitPrice(variant, measure, currencyDigits(code))).toBe(rounded(exact, code));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** Two units of one type, with their exact factors. */
const unitPair = fc
  .constantFrom(...MEASUREMENT_TYPES)
  .chain((type) =>
    fc.tuple(fc.constantFrom(...UNIT_CATALOGUE[type].units), fc.constantFrom(...UNIT_CATALOGUE[type].units)),
  );

describe('unitPrice, for any price, quantity, unit pair, reference and currency', () => {
  it('when a price buys a quantity, then the reference costs price × reference ÷ quantity, rounded half-even once', () => {
    fc.assert(
      fc.property(
        decimalText(10_000_000, 4),
        positive(100_000, 6),
        unitPair,
        fc.oneof(fc.constantFrom(1, 10, 100, 1000), positive(1000, 2)),
        currency,
        fc.boolean(),
        (price, value, [from, to], per, code, asText) => {
          const measured = { value: asText ? new D(String(value)).toFixed() : value, unit: from.id };
          const reference = { value: per, unit: to.id };
          const exact = new D(price)
            .times(String(per))
            .times(to.factor)
            .div(new D(String(value)).times(from.factor));

          expect(unitPrice(price, measured, reference, code)).toEqual({
            amount: rounded(exact, code),
            currency: code,
            reference,
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});
