import { describe, expect, test } from 'vitest';
import { readTypedNumber } from './typed-number.js';

describe('a number typed by a person', () => {
  test.each([
    ['4.20', '4.20'],
    ['-3', '-3'],
    ['4,20', '4.20'],
    ['0,5', '0.5'],
    ['-1,5', '-1.5'],
    ['1,200.50', '1200.50'],
    ['1.200,50', '1200.50'],
    ['1,200,000', '1200000'],
    ['1.200.000', '1200000'],
    ['1 200,5', '1200.5'],
    ['1\u00a0200', '1200'],
    ['12\u202f345,678', '12345.678'],
    // A dot alone is the decimal mark, as in the API.
    ['1.200', '1.200'],
  ])('%s is read as %s', (typed, text) => {
    expect(readTypedNumber(typed)).toEqual({ ok: true, text });
  });

  test('a comma before exactly three digits could be either mark, so it is refused with what to type', () => {
    expect(readTypedNumber('1,200')).toEqual({
      ok: false,
      ambiguous: true,
      hint: 'could be 1200 or 1.200: type 1200 without the comma, or use a dot for decimals: 1.200',
    });
  });

  test.each(['', 'abc', '1,2,3', '1.200,000.5', '4.20€', '1 20', '--1'])('%j is no number', (typed) => {
    expect(readTypedNumber(typed)).toMatchObject({ ok: false, ambiguous: false });
  });
});
