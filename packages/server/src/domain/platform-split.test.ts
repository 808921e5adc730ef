import { describe, expect, it } from 'vitest';
import { Dec } from './decimal.js';
import { splitForPlatform } from './platform-split.js';

describe('splitForPlatform', () => {
  it.each([
    ['12.75', '1', '12', '0.75'],
    ['1250', '100', '12', '50'],
    ['0', '1', '0', '0'],
    ['-0.25', '1', '-1', '0.75'],
    ['0.3', '0.1', '3', '0'],
    ['99999999999999999999.999999999', '0.5', '199999999999999999999', '0.499999999'],
  ])('when total is %s and unit value %s, then the platform shows %s and Tare keeps %s', (total, unit, int, frac) => {
    const split = splitForPlatform(new Dec(total), new Dec(unit));
    expect(split.integer.toFixed()).toBe(int);
    expect(split.fraction.toFixed()).toBe(frac);
  });

  it('when the unit value is not positive, then it throws', () => {
    expect(() => splitForPlatform(new Dec(1), new Dec(0))).toThrow(RangeError);
  });
});
