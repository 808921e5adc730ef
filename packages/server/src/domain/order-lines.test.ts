import { describe, expect, it } from 'vitest';
import { Dec } from './decimal.js';
import { consumption, currencyDigits, formatUnitPrice, linePrice } from './order-lines.js';

describe('order lines', () => {
  it.each([
    [2, '1.25', '2.5'],
    [0, '3', '0'],
    [3, '0.1', '0.3'],
  ])('when %i items of %s are ordered, then %s is consumed', (quantity, value, expected) => {
    expect(consumption(quantity, new Dec(value)).toFixed()).toBe(expected);
  });

  it.each([
    ['24.00', '1', '1.25', 'USD', '30.00'],
    ['1.80', '100', '250', 'USD', '4.50'],
    ['1000', '1', '0.333', 'JPY', '333'],
    ['10.005', '1', '1', 'USD', '10.00'],
    ['10.015', '1', '1', 'USD', '10.02'],
  ])(
    'when a variant costs %s per %s and the line measures %s (%s), then the line price is %s',
    (price, unitValue, value, currency, expected) => {
      expect(linePrice(price, unitValue, new Dec(value), currency)).toBe(expected);
    },
  );

  it.each([
    ['30.00', '1.25', 'kg', 'USD', '$24.00 per kg'],
    ['10.00', '1', 'lb', 'USD', '$10.00 per lb'],
    ['4.80', '1', 'kg', 'EUR', '€4.80 per kg'],
  ])(
    'when a line charged %s measures %s %s in %s, then the unit price reads %j',
    (price, value, unit, currency, text) => {
      expect(formatUnitPrice(price, { value: new Dec(value), unit }, currency)).toBe(text);
    },
  );

  it.each([
    ['4.50', '250', 'g', '100', '$1.80 per 100 g'],
    ['3.60', '500', 'g', '100', '$0.72 per 100 g'],
    ['9.00', '0.75', 'L', '0.5', '$6.00 per 0.5 L'],
    ['30.00', '1.25', 'kg', '1', '$24.00 per kg'],
  ])(
    'when a line charged %s measures %s %s of a variant sold per %s, then the unit price reads %j',
    (price, value, unit, unitValue, text) => {
      expect(formatUnitPrice(price, { value: new Dec(value), unit }, 'USD', new Dec(unitValue))).toBe(text);
    },
  );

  it('when a currency has no minor unit, then prices have no decimals', () => {
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('USD')).toBe(2);
  });
});
