import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, toPlainString } from './decimal.js';
import { exactQuantity, QUANTITY_SCALE } from './quantity.js';
import { convert, MEASUREMENT_TYPES, unitsOf } from './units.js';

describe('exactQuantity', () => {
  it.each([
    ['3.3', 'lb', 'kg', '1.496854821'],
    ['1.25', 'kg', 'g', '1250'],
    ['-0.5', 'kg', 'kg', '-0.5'],
    ['0', 'oz', 'kg', '0'],
    ['0.000000001', 'kg', 'kg', '0.000000001'],
    ['0.001', 'mg', 'kg', '0.000000001'],
    ['123456789012.123456789', 'kg', 'kg', '123456789012.123456789'],
  ])('when %s %s is sent for a %s variant, then it is kept exactly as %s', (value, from, to, expected) => {
    const result = exactQuantity(new Dec(value), from, to);
    expect(result.ok && toPlainString(result.value)).toBe(expected);
  });

  it.each(['1e-100', '0.0000000001', '12.0000000001', '0.30000000000000004'])(
    'when %s kg has more than 9 decimal places, then it is refused as sent',
    (value) => {
      expect(exactQuantity(new Dec(value), 'kg', 'kg')).toEqual({
        ok: false,
        message: 'has more than 9 decimal places; Tare keeps 9 decimal places of a unit',
      });
    },
  );

  it.each([
    // The exact conversion is kept when it has at most 9 decimals: nothing to round.
    ['1', 'g', 'kg', '0.001'],
    ['1', 'oz', 'kg', '0.028349523'], // 0.028349523125
    ['1', 'g', 'lb', '0.002204623'], // 0.0022046226218…
    ['1', 'in3', 'ft3', '0.000578704'], // 1/1728 = 0.000578703703…
    // A 10th decimal of exactly 5 goes to the even 9th: kept when even, up when odd.
    ['4', 'oz', 'kg', '0.113398092'], // 0.1133980925
    ['12', 'oz', 'kg', '0.340194278'], // 0.3401942775
    ['1234.5678925', 'g', 'kg', '1.234567892'],
    ['1234.5678935', 'g', 'kg', '1.234567894'],
    ['-1234.5678925', 'g', 'kg', '-1.234567892'],
    ['-1234.5678935', 'g', 'kg', '-1.234567894'],
    ['0.0000015', 'g', 'kg', '0.000000002'], // 0.0000000015: the smallest kept, not 0
    ['0.0000025', 'g', 'kg', '0.000000002'],
  ])(
    'when %s %s is sent for a %s variant, then it is converted and rounded half-even to 9 decimals as %s',
    (value, from, to, expected) => {
      const result = exactQuantity(new Dec(value), from, to);
      expect(result.ok && toPlainString(result.value)).toBe(expected);
    },
  );

  it.each([
    ['0.000001', 'mg', 't', '0.000000000000001 t'],
    ['0.0000005', 'g', 'kg', '0.0000000005 kg'], // a tie, rounded to the even 0
    ['-0.000001', 'mg', 'kg', '-0.000000000001 kg'],
    ['0.0000001', 'in3', 'ft3', '0.00000000005787037037037037037… ft3'],
  ])('when %s %s is not 0 but rounds to 0 in %s, then it is refused, never booked as 0', (value, from, to, text) => {
    expect(exactQuantity(new Dec(value), from, to)).toEqual({
      ok: false,
      message: `${value} ${from} is ${text}, below what Tare keeps in the variant's unit (9 decimal places of ${to}): it would be booked as 0`,
    });
  });

  it('when a value is accepted, then it is its conversion rounded half-even to 9 decimals; when not, then it has more than 9 in its own unit or is not 0 and rounds to 0', () => {
    const units = MEASUREMENT_TYPES.flatMap((type) => unitsOf(type).map((unit) => ({ type, unit })));
    const pair = fc
      .tuple(fc.constantFrom(...units), fc.constantFrom(...units))
      .filter(([from, to]) => from.type === to.type);
    const decimal = fc
      .tuple(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.integer({ min: 0, max: 12 }))
      .map(([digits, scale]) => new Dec(digits).div(new Dec(10).pow(scale)));
    fc.assert(
      fc.property(pair, decimal, ([from, to], value) => {
        const result = exactQuantity(value, from.unit, to.unit);
        const exact = convert(value, from.unit, to.unit);
        // The model rounds by hand: to the nearer multiple of 1e-9, a tie to the even one.
        const step = new Dec('1e-9');
        const below = exact.div(step).floor();
        const rest = exact.div(step).minus(below);
        const up = rest.gt(0.5) || (rest.eq(0.5) && below.mod(2).abs().eq(1));
        const rounded = from.unit === to.unit ? exact : below.plus(up ? 1 : 0).times(step);
        const keepable = value.decimalPlaces() <= QUANTITY_SCALE && (value.isZero() || !rounded.isZero());
        expect(result.ok).toBe(keepable);
        if (result.ok) expect(toPlainString(result.value)).toBe(toPlainString(rounded));
      }),
      { numRuns: 1000 },
    );
  });
});
