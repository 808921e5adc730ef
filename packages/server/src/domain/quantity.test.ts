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
    ['1', 'oz', 'kg', '1 oz is 0.028349523125 kg'],
    ['1', 'g', 'lb', '1 g is 0.00220462262184877580… lb'],
    ['1', 'in3', 'ft3', '1 in3 is 0.00057870370370370370… ft3'],
    ['0.0000025', 'g', 'kg', '0.0000025 g is 0.0000000025 kg'],
    ['0.000001', 'mg', 'kg', '0.000001 mg is 0.000000000001 kg'],
  ])(
    'when %s %s converts into %s with more than 9 decimals, then it is refused, never rounded',
    (value, from, to, text) => {
      const result = exactQuantity(new Dec(value), from, to);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.message).toBe(
        `${text} in the variant's unit, which needs more than 9 decimal places; ` +
          `send it in ${to} with at most 9 decimal places`,
      );
    },
  );

  it('when a value is accepted, then it is the exact conversion; when it is not, then one side needs more than 9 decimals', () => {
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
        const keepable = value.decimalPlaces() <= QUANTITY_SCALE && exact.decimalPlaces() <= QUANTITY_SCALE;
        expect(result.ok).toBe(keepable);
        if (result.ok) expect(result.value.eq(exact)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
