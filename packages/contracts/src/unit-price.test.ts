import { describe, expect, it } from 'vitest';
import { formatUnitPrice, unitPrice, unitPriceReference } from './unit-price.js';

// Worked examples: price, what it buys, the reference, currency → amount (worked by hand, exact).
const GOLDEN: [string, number | string, string, number, string, string, string][] = [
  ['4.80', 250, 'g', 1, 'kg', 'EUR', '19.20'],
  ['4.80', 250, 'g', 100, 'g', 'EUR', '1.92'],
  // 12 fl oz = 0.354882354750 L: 3.99 ÷ 0.35488235475 = 11.2431625…
  ['3.99', 12, 'floz', 1, 'L', 'USD', '11.24'],
  ['3.99', 12, 'floz', 100, 'ml', 'USD', '1.12'],
  // 5 ÷ 0.45359237 = 11.0231131…
  ['5.00', 1, 'lb', 1, 'kg', 'USD', '11.02'],
  // 12.99 ÷ (2.5 × 0.09290304) = 55.9292785…
  ['12.99', 2.5, 'ft2', 1, 'm2', 'GBP', '55.93'],
  ['2.49', 1, 'yd', 1, 'm', 'USD', '2.72'],
  // JPY has no minor digits: 398 ÷ 300 × 100 = 132.67 → 133.
  ['398', 300, 'g', 100, 'g', 'JPY', '133'],
  ['398', 300, 'g', 1, 'kg', 'JPY', '1327'],
  // BHD has three: 1.250 ÷ 0.75 = 1.66666… → 1.667.
  ['1.250', 750, 'ml', 1, 'L', 'BHD', '1.667'],
  // Exact ties go to the even minor unit, once at the end: 0.125 → 0.12, 0.135 → 0.14.
  ['1.25', 10, 'kg', 1, 'kg', 'EUR', '0.12'],
  ['1.35', 10, 'kg', 1, 'kg', 'EUR', '0.14'],
  // Decimal text in, decimal text out: 0.1 kg is exact, never 0.1000000000000000055…
  ['2.00', '0.1', 'kg', 1, 'kg', 'EUR', '20.00'],
];

describe('unitPrice', () => {
  it.each(GOLDEN)(
    'when %s buys %s %s, then per %s %s in %s it is %s',
    (price, value, unit, per, perUnit, cur, want) => {
      const reference = { value: per, unit: perUnit };
      expect(unitPrice(price, { value, unit }, reference, cur)).toEqual({ amount: want, currency: cur, reference });
    },
  );

  it('when a preset has its own price, then its unit price comes from that price and its quantity', () => {
    // A 500 g pill at €9.00 on a variant priced €4.80 per 250 g.
    expect(unitPrice('9.00', { value: 500, unit: 'g' }, { value: 1, unit: 'kg' }, 'EUR').amount).toBe('18.00');
  });

  it.each([
    ['4.80', { value: 0, unit: 'g' }, { value: 1, unit: 'kg' }, /greater than 0/],
    ['4.80', { value: 250, unit: 'g' }, { value: 0, unit: 'kg' }, /greater than 0/],
    ['4.80', { value: 250, unit: 'g' }, { value: 1, unit: 'L' }, /per g per L/],
    ['4.80', { value: 250, unit: 'grams' }, { value: 1, unit: 'kg' }, /per grams/],
    ['four', { value: 250, unit: 'g' }, { value: 1, unit: 'kg' }, /the price is not a decimal number/],
  ] as const)('when the input is impossible (%s, %j, %j), then it is a RangeError', (price, measured, ref, why) => {
    expect(() => unitPrice(price, measured, ref, 'EUR')).toThrow(why);
  });
});

describe('unitPriceReference', () => {
  const shop = { enabled: true, reference: { weight: { value: 100, unit: 'g' } } };

  it('when the shop names a reference for the type, then that one; else the default', () => {
    expect(unitPriceReference(shop, 'weight')).toEqual({ value: 100, unit: 'g' });
    expect(unitPriceReference(shop, 'volume')).toEqual({ value: 1, unit: 'L' });
    expect(unitPriceReference(shop, 'length')).toEqual({ value: 1, unit: 'm' });
    expect(unitPriceReference(shop, 'area')).toEqual({ value: 1, unit: 'm2' });
  });

  it('when unit pricing is off or the type is time, then there is no reference', () => {
    expect(unitPriceReference({ ...shop, enabled: false }, 'weight')).toBeUndefined();
    expect(unitPriceReference(undefined, 'weight')).toBeUndefined();
    expect(unitPriceReference(shop, 'time')).toBeUndefined();
  });
});

describe('formatUnitPrice', () => {
  it('when the reference is 1 of a unit, then the number is dropped; else it is kept', () => {
    const perKg = unitPrice('4.80', { value: 250, unit: 'g' }, { value: 1, unit: 'kg' }, 'EUR');
    const per100g = unitPrice('4.80', { value: 250, unit: 'g' }, { value: 100, unit: 'g' }, 'EUR');
    expect(formatUnitPrice(perKg)).toBe('€19.20/kg');
    expect(formatUnitPrice(per100g)).toBe('€1.92/100g');
    expect(formatUnitPrice(per100g, 'de')).toBe('1,92\u00a0€/100g');
  });
});
