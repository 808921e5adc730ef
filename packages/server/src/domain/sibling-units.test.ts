import { describe, expect, it } from 'vitest';
import { Dec } from './decimal.js';
import { wholeUnitsOf } from './sibling-units.js';

describe('wholeUnitsOf', () => {
  it('gives the worked example of PRODUCT.md §20: 1 kg is 10 × 100 g, 4 × 250 g, 1 × 1 kg; 0.75 kg is 7, 3, 0', () => {
    const units = (total: string) =>
      [
        ['g', 100],
        ['g', 250],
        ['kg', 1],
      ].map(([unit, value]) => wholeUnitsOf(new Dec(total), 'kg', unit as string, new Dec(value!)).toNumber());
    expect(units('1')).toEqual([10, 4, 1]);
    expect(units('0.75')).toEqual([7, 3, 0]);
  });

  it('floors below zero too (an oversold item shows negative units)', () => {
    expect(wholeUnitsOf(new Dec('-0.1'), 'kg', 'g', new Dec(250)).toNumber()).toBe(-1);
  });

  it('never shows a unit more than the item holds when the quotient repeats (1 lb short of 16 oz by 1e-9 kg)', () => {
    // 0.45359237 kg is exactly 16 oz; a billionth of a kg less is 15 whole ounces, although the
    // quotient rounded to 9 decimal places of an ounce is 16.000000000.
    expect(wholeUnitsOf(new Dec('0.453592369'), 'kg', 'oz', new Dec(1)).toNumber()).toBe(15);
    expect(wholeUnitsOf(new Dec('0.45359237'), 'kg', 'oz', new Dec(1)).toNumber()).toBe(16);
  });
});
