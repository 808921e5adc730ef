import { describe, expect, it } from 'vitest';
import { currencyDigits, type LinePricing, lineUnitPrice } from './line-price.js';

// As the API answers them: a label beside the value and price is no part of pricing.
const PRESETS = [{ value: 1, price: '39.00' }, { value: 0.5 }, { value: 2.5, label: 'Big', price: '99.995' }];
const PER_KG: LinePricing = { price: '42.00', unitValue: 1, presets: PRESETS };
const PER_100_G: LinePricing = { price: '24.00', unitValue: '100' };

describe('lineUnitPrice', () => {
  it.each([
    ['a preset with its own price', PER_KG, 1, 2, '39.00'],
    ['a preset with its own price written as decimal text', PER_KG, '1.000', 2, '39.00'],
    ['a preset without a price', PER_KG, 0.5, 2, '21.00'],
    ['a measurement that is no preset', PER_KG, 0.75, 2, '31.50'],
    ['a preset price with more decimals than the currency (half-even)', PER_KG, 2.5, 2, '100.00'],
    ['a variant sold per 100 g', PER_100_G, 250, 2, '60.00'],
    ['a price rounded once, half-even', { price: '24.00', unitValue: 1 }, 1.333, 2, '31.99'],
    ['half a cent below an even cent', { price: '0.10', unitValue: 1 }, 0.25, 2, '0.02'],
    ['half a cent below an odd cent', { price: '0.10', unitValue: 1 }, 0.35, 2, '0.04'],
    ['yen, which have no minor unit', { price: '2400', unitValue: 1 }, 2.5, 0, '6000'],
    ['yen half-way between two yen', { price: '5', unitValue: 1 }, 0.5, 0, '2'],
    [
      'yen with a preset price',
      { price: '2400', unitValue: 1, presets: [{ value: 0.5, price: '1100' }] },
      0.5,
      0,
      '1100',
    ],
    ['dinars, which have 3 minor digits', { price: '4.250', unitValue: 1 }, 0.3, 3, '1.275'],
    ['dinars half-way between two fils', { price: '0.001', unitValue: 1 }, 0.5, 3, '0.000'],
    [
      'dinars with a preset price',
      { price: '4.250', unitValue: 1, presets: [{ value: 1, price: '3.9' }] },
      1,
      3,
      '3.900',
    ],
    ['a measurement of 1e-7 in exponent form', { price: '10000000', unitValue: 1 }, 1e-7, 2, '1.00'],
    ['a huge measurement, exactly', { price: '1', unitValue: 1 }, 1e21, 2, '1000000000000000000000.00'],
    ['1.80 per 100 g at 250 g', { price: '1.80', unitValue: '100' }, '250', 2, '4.50'],
    ['1000 yen per kg at 0.333 kg', { price: '1000', unitValue: '1' }, '0.333', 0, '333'],
    ['a price at half a cent below an even cent', { price: '10.005', unitValue: '1' }, '1', 2, '10.00'],
    ['a price at half a cent below an odd cent', { price: '10.015', unitValue: '1' }, '1', 2, '10.02'],
    ['an unmeasured line', PER_KG, undefined, 2, '42.00'],
    ['an unmeasured line whose price has more decimals', { price: '0.125', unitValue: 1 }, undefined, 2, '0.12'],
  ])('when %s, then one unit of the line costs %s', (_name, variant, measurement, digits, expected) => {
    expect(lineUnitPrice(variant, measurement, digits)).toBe(expected);
  });

  it('when two presets have the value and only the second a price, then the priced one applies', () => {
    const variant = { price: '42.00', unitValue: 1, presets: [{ value: 1 }, { value: 1, price: '40.00' }] };

    expect(lineUnitPrice(variant, 1, 2)).toBe('40.00');
  });

  it.each([
    ['a measurement that is not finite', { price: '1', unitValue: 1 }, Infinity, 2, /the measurement is not a decimal/],
    ['a price that is not decimal text', { price: '1,5', unitValue: 1 }, 1, 2, /the variant price is not a decimal/],
    ['a unit measurement of 0', { price: '1', unitValue: 0 }, 1, 2, /greater than 0/],
    ['a count of digits that is negative', { price: '1', unitValue: 1 }, 1, -1, /not a count of digits/],
  ])('when %s, then it throws', (_name, variant, measurement, digits, message) => {
    expect(() => lineUnitPrice(variant, measurement, digits)).toThrow(message);
  });
});

describe('currencyDigits', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['JPY', 0],
    ['BHD', 3],
  ])('when the currency is %s, then its minor unit has %i digits', (currency, digits) => {
    expect(currencyDigits(currency)).toBe(digits);
  });

  it('when a currency is one Intl knows, then its digits are the ones Intl.NumberFormat uses', () => {
    const intlDigits = (currency: string) =>
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
    for (const currency of [...Intl.supportedValuesOf('currency'), 'XYZ', 'usd', 'jpy']) {
      expect([currency, currencyDigits(currency)]).toEqual([currency, intlDigits(currency)]);
    }
  });

  it('when the code is not three letters, then it is refused as Intl refuses it', () => {
    expect(() => currencyDigits('US')).toThrow(RangeError);
    expect(() => currencyDigits('')).toThrow(RangeError);
  });
});
