import { currencyDigits } from '@tare/contracts';
import { describe, expect, it } from 'vitest';
import { Dec } from './decimal.js';
import { consumption, derivedUnitPrice, formatUnitPrice } from './order-lines.js';

describe('order lines', () => {
  it.each([
    [2, '1.25', '2.5'],
    [0, '3', '0'],
    [3, '0.1', '0.3'],
  ])('when %i items of %s are ordered, then %s is consumed', (quantity, value, expected) => {
    expect(consumption(quantity, new Dec(value)).toFixed()).toBe(expected);
  });

  it.each([
    ['2.50', '1', 'm', 'USD', '$2.50 per m'],
    ['24', '1', 'kg', 'USD', '$24.00 per kg'],
    ['1.80', '100', 'g', 'USD', '$1.80 per 100 g'],
    ['6.00', '0.5', 'L', 'USD', '$6.00 per 0.5 L'],
    ['4.80', '1', 'kg', 'EUR', '€4.80 per kg'],
    ['0.125', '1', 'g', 'USD', '$0.125 per g'],
    ['0.123456', '1', 'g', 'USD', '$0.123456 per g'],
    ['1250', '1', 'kg', 'JPY', '¥1,250 per kg'],
    ['123456789012345.123456', '1', 'kg', 'USD', '$123,456,789,012,345.123456 per kg'],
  ])(
    'when the price is %s per %s %s in %s, then the unit price reads %j, exactly',
    (price, unitValue, unit, currency, text) => {
      expect(formatUnitPrice(price, { value: new Dec(unitValue), unit }, currency)).toBe(text);
    },
  );

  it.each([
    ['30.00', '1.25 kg', '1 kg', 'USD', '24.00'],
    ['10.00', '4 lb', '1 lb', 'USD', '2.50'],
    ['10.00', '3 lb', '1 lb', 'USD', '3.33'],
    ['4.50', '250 g', '100 g', 'USD', '1.80'],
    ['5.00', '500 g', '1 kg', 'USD', '10.00'],
    ['1.00', '1 kg', '1 lb', 'USD', '0.45'],
    ['1.90', '0.762 m', '1 m', 'USD', '2.49'],
    ['1000', '3 kg', '1 kg', 'JPY', '333'],
  ])(
    'when a line without a variant was charged %s for %s, then its derived price per %s (%s) is %s',
    (price, measured, per, currency, expected) => {
      const quantity = (text: string) => {
        const [value, unit] = text.split(' ');
        return { value: new Dec(value!), unit: unit! };
      };
      const derived = derivedUnitPrice(price, quantity(measured), quantity(per), currency);
      expect(derived.toFixed(currencyDigits(currency))).toBe(expected);
    },
  );
});
