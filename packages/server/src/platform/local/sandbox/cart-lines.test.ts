import { describe, expect, it } from 'vitest';
import { Dec } from '../../../domain/decimal.js';
import {
  addLine,
  type CartLine,
  inexactAmount,
  largestAmount,
  linePriceMinor,
  MAX_MINOR_UNITS,
  minorUnits,
  propertyList,
  sameProperties,
  unitPrice,
  variantIdOf,
} from './cart-lines.js';

const svc = (value: number, unit: string) =>
  JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit, value }] } });

describe('variantIdOf', () => {
  it.each([
    [2001, '2001'],
    ['2001', '2001'],
    ['gid://shopify/ProductVariant/2001', '2001'],
  ])('when the id is %j, then the variant is %s', (id, expected) => {
    expect(variantIdOf(id)).toBe(expected);
  });
});

describe('propertyList', () => {
  it('when properties are an object, then the list keeps its key order', () => {
    expect(propertyList({ b: '1', a: '2' })).toEqual({
      ok: true,
      list: [
        { name: 'b', value: '1' },
        { name: 'a', value: '2' },
      ],
    });
  });

  it('when none are given, then the list is empty', () => {
    expect(propertyList(undefined)).toEqual({ ok: true, list: [] });
  });

  it('when a list names a property twice, then the second is reported', () => {
    expect(
      propertyList([
        { name: 'a', value: '1' },
        { name: 'b', value: '1' },
        { name: 'a', value: '2' },
      ]),
    ).toEqual({ ok: false, index: 2, name: 'a' });
  });
});

describe('sameProperties', () => {
  it.each([
    [[], [], true],
    [[{ name: 'a', value: '1' }], [{ name: 'a', value: '1' }], true],
    [
      [
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
      [
        { name: 'b', value: '2' },
        { name: 'a', value: '1' },
      ],
      true,
    ],
    [[{ name: 'a', value: '1' }], [{ name: 'a', value: '2' }], false],
    [[{ name: 'a', value: '1' }], [], false],
  ])('when %j and %j are compared, then they are the same: %s', (a, b, same) => {
    expect(sameProperties(a, b)).toBe(same);
  });
});

describe('unitPrice', () => {
  const perKg = { price: '24.00', unit: 'kg', unitValue: '1' };
  const per100g = { price: '24.00', unit: 'g', unitValue: '100' };
  const withPresets = {
    price: '42.00',
    unit: 'kg',
    unitValue: '1',
    presets: [{ value: 1, label: '1 kg bag', price: '39.00' }, { value: 0.5 }],
  };

  it.each([
    ['2.5 kg of a variant sold per kg', perKg, svc(2.5, 'kg'), 'USD', '60.00'],
    ['250 g of a variant sold per 100 g', per100g, svc(250, 'g'), 'USD', '60.00'],
    ['1.333 kg (rounded half-even once)', perKg, svc(1.333, 'kg'), 'USD', '31.99'],
    ['0.025 of a cent rounds to even', { price: '0.10', unit: 'kg', unitValue: '1' }, svc(0.25, 'kg'), 'USD', '0.02'],
    ['0.035 rounds to even upward', { price: '0.10', unit: 'kg', unitValue: '1' }, svc(0.35, 'kg'), 'USD', '0.04'],
    ['yen have no minor unit', { price: '2400', unit: 'kg', unitValue: '1' }, svc(2.5, 'kg'), 'JPY', '6000'],
    ['a unit other than the variant’s is not measured', perKg, svc(2500, 'g'), 'USD', '24.00'],
    ['broken _svc_data is not measured', perKg, '{"measurement":', 'USD', '24.00'],
    ['1 kg is a preset with its own price', withPresets, svc(1, 'kg'), 'USD', '39.00'],
    ['0.5 kg is a preset without a price', withPresets, svc(0.5, 'kg'), 'USD', '21.00'],
    ['0.75 kg is no preset', withPresets, svc(0.75, 'kg'), 'USD', '31.50'],
    ['1000 g is not in the variant’s unit, so not the 1 kg preset', withPresets, svc(1000, 'g'), 'USD', '42.00'],
  ])('when %s, then the line costs %s', (_name, variant, raw, currency, expected) => {
    expect(unitPrice(variant, [{ name: '_svc_data', value: raw }], currency)).toBe(expected);
  });

  it('when the line has no _svc_data, then it costs the variant price at the minor unit', () => {
    expect(unitPrice({ price: '0.125', unit: 'kg', unitValue: '1' }, [], 'USD')).toBe('0.12');
  });
});

describe('minorUnits', () => {
  it.each([
    ['60.00', 'USD', 6000],
    ['0.02', 'USD', 2],
    ['6000', 'JPY', 6000],
    ['1.234', 'BHD', 1234],
  ])('when %s %s is shown, then it is %i', (amount, currency, expected) => {
    expect(minorUnits(amount, currency)).toBe(expected);
  });
});

describe('inexactAmount', () => {
  const line = (price: string, quantity: number): CartLine => ({
    key: `2001:${price}:${quantity}`,
    variantId: '2001',
    productId: '1001',
    quantity,
    properties: [],
    price,
  });
  const largest = '90071992547409.91'; // MAX_MINOR_UNITS cents

  it.each([
    ['every amount fits', [line('24.00', 2)], 0, undefined],
    ['the line price is exactly the largest', [line(largest, 1)], 0, undefined],
    ['the unit price passes the largest by a cent', [line('90071992547409.92', 1)], 0, 'price'],
    ['the unit price is 1e300 × 42', [line(`42${'0'.repeat(300)}.00`, 1)], 0, 'price'],
    ['the largest quantity at a dollar fits', [line('1.00', 2147483647), line('0.01', 1)], 0, undefined],
    ['unit price × quantity passes it', [line('4194304.01', 2147483647)], 0, 'line_price'],
    ['only the sum of the lines passes it', [line(largest, 1), line('0.01', 1)], 1, 'total_price'],
  ])('when %s, then the inexact amount is %s', (_name, lines, index, expected) => {
    expect(inexactAmount(lines, index, 'USD')).toBe(expected);
    // The same answer from the other lines' total as a caller keeps it.
    const others = lines
      .filter((_, i) => i !== index)
      .reduce((sum, l) => sum.plus(linePriceMinor(l, 'USD')), new Dec(0));
    expect(inexactAmount(lines, index, 'USD', others)).toBe(expected);
  });

  it('when the caller gives the other lines’ total, then the cart’s total is that plus the line', () => {
    expect(inexactAmount([line('0.01', 1)], 0, 'USD', new Dec(MAX_MINOR_UNITS - 1))).toBeUndefined();
    expect(inexactAmount([line('0.01', 1)], 0, 'USD', new Dec(MAX_MINOR_UNITS))).toBe('total_price');
  });

  it('when the currency has no minor unit, then the largest amount is whole yen', () => {
    expect(inexactAmount([line(String(MAX_MINOR_UNITS), 1)], 0, 'JPY')).toBeUndefined();
    expect(inexactAmount([line(String(MAX_MINOR_UNITS + 1), 1)], 0, 'JPY')).toBe('price');
    expect(largestAmount('JPY')).toBe('9007199254740991 JPY');
    expect(largestAmount('BHD')).toBe('9007199254740.991 BHD');
  });
});

describe('addLine', () => {
  const line = (quantity: number, properties: CartLine['properties'] = []) => ({
    variantId: '2001',
    productId: '1001',
    quantity,
    properties,
    price: '24.00',
  });

  it('when an equal line is added with merging, then its quantity adds and its key stays', () => {
    const first = addLine([], line(1, [{ name: 'a', value: '1' }]), true);

    const second = addLine(first.lines, line(2, [{ name: 'a', value: '1' }]), true);

    expect(second.index).toBe(0);
    expect(second.lines).toEqual([{ ...first.lines[0], quantity: 3 }]);
  });

  it('when an equal line is added without merging, then it is a new line with another key', () => {
    const first = addLine([], line(1), false);

    const second = addLine(first.lines, line(1), false);

    expect(second.index).toBe(1);
    expect(second.lines[1]!.key).toMatch(/^2001:[0-9a-f]{32}$/);
    expect(second.lines[1]!.key).not.toBe(second.lines[0]!.key);
  });

  it('when the cart is changed, then the list given is left as it was', () => {
    const first = addLine([], line(1), true);
    const before = structuredClone(first.lines);

    addLine(first.lines, line(1), true);

    expect(first.lines).toEqual(before);
  });
});
