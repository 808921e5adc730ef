import { describe, expect, it } from 'vitest';
import { Dec, decimalFromJson, toJsonNumber, toPlainString } from './decimal.js';

describe('Dec', () => {
  it('when a 41-digit value is stored, then no digit is lost', () => {
    const s = '12345678901234567890.123456789012345678901';
    expect(toPlainString(new Dec(s).plus(0))).toBe(s);
  });

  it('when rounding a tie, then it rounds half to even', () => {
    expect(new Dec('0.125').toDecimalPlaces(2).toString()).toBe('0.12');
    expect(new Dec('0.135').toDecimalPlaces(2).toString()).toBe('0.14');
  });
});

describe('decimalFromJson', () => {
  it.each([
    [0.1, '0.1'],
    [12.75, '12.75'],
    [-3, '-3'],
    [1e21, '1000000000000000000000'],
    [1e-9, '0.000000001'],
    [-0, '0'],
  ])('when given %s, then it is exactly %s', (n, text) => {
    expect(toPlainString(decimalFromJson(n))).toBe(text);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'when given %s, then it throws RangeError',
    (n) => {
      expect(() => decimalFromJson(n)).toThrow(RangeError);
    },
  );
});

describe('toPlainString', () => {
  it.each([
    ['12.750', '12.75'],
    ['1e-9', '0.000000001'],
    ['1e-70', `0.${'0'.repeat(69)}1`],
    ['1e70', `1${'0'.repeat(70)}`],
    ['-3.000', '-3'],
    ['0.000', '0'],
    ['-0', '0'],
  ])('when given %s, then it prints %s', (input, text) => {
    expect(toPlainString(new Dec(input))).toBe(text);
  });
});

describe('toJsonNumber', () => {
  it('when given a decimal, then it returns the nearest number', () => {
    expect(toJsonNumber(new Dec('12.75'))).toBe(12.75);
    expect(toJsonNumber(new Dec('0.1'))).toBe(0.1);
  });
});
