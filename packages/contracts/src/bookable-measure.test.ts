import { describe, expect, it } from 'vitest';
import { bookableMeasureIssue, lineUnitsIssue } from './bookable-measure.js';

describe('bookableMeasureIssue', () => {
  it.each([
    ['1.25 kg × 2', 1.25, 2, 1],
    ['9 decimal places', 0.123456789, 1, 1],
    ['exactly 1e9 whole units', 1_000_000_000, 1, 1],
    ['1e9 whole units of 10 g', 5_000_000_000, 2, 10],
  ])('when the line is %s, then it can be booked', (_name, measure, quantity, unitValue) => {
    expect(bookableMeasureIssue(measure, quantity, unitValue, 'kg')).toBeUndefined();
  });

  it.each([
    ['10 decimal places', 0.1234567891, 1, 1, '0.1234567891 kg has more than 9 decimal places'],
    ['1e-10 in exponent form', 1e-10, 1, 1, '0.0000000001 kg has more than 9 decimal places'],
    ['0', 0, 1, 1, '0 kg is not a measure greater than 0'],
    ['a quantity of 0', 1, 0, 1, '0 is not a whole quantity'],
    ['past 1e9 whole units', 1_000_000_000.5, 1, 1, 'is more than 1000000000 whole units'],
    ['past 1e9 whole units by its quantity', 500_000_001, 2, 1, '2 × 500000001 kg is more than 1000000000'],
    ['past 1e9 whole units of 0.001 kg', 1_000_001, 1, '0.001', 'is more than 1000000000 whole units'],
  ])('when the line is %s, then it cannot be booked', (_name, measure, quantity, unitValue, reason) => {
    expect(bookableMeasureIssue(measure, quantity, unitValue, 'kg')).toContain(reason);
  });
});

describe('lineUnitsIssue', () => {
  it('when a measure is decimal text in exponent form, then it is compared exactly', () => {
    expect(lineUnitsIssue('1.0000000001e9', 1, '1', 'x')).toContain('more than 1000000000');
    expect(lineUnitsIssue('1e9', 1, '1', 'x')).toBeUndefined();
  });
});
