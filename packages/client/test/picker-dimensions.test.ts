import { validateSvcData } from '@tare/contracts';
import { describe, expect, it } from 'vitest';
import { pickerFields, pickLine, type PickerVariantConfig } from '../src/picker/index.js';

/** The demo carpet's variant metafield: 29.00 per m², off a 4 m roll, 10 % overage (PRODUCT.md §19). */
const CARPET: PickerVariantConfig = {
  version: 1,
  type: 'area',
  unitMeasurement: { unit: 'm2', value: 1 },
  displayStyle: 'number',
  rules: { min: 0.01, increment: 0.01, defaultValue: 4.4, max: null },
  dimensions: [
    { name: 'length', unit: 'm', rules: { min: 0.5, increment: 0.01, defaultValue: 1, max: 50 } },
    { name: 'width', unit: 'm', fixed: 4 },
  ],
  overagePercent: 10,
  price: '29.00',
  currency: 'USD',
};
const EN = {
  netArea: 'Area',
  netArea_value_m2: '{Value} {Unit}',
  dimensions: 'Dimensions',
  dimensions_value: '{Dimensions}',
  overage: 'Overage',
  overage_value: 'Includes {Percent}% extra',
};
const pick = (factors: (number | undefined)[], pricingMode: 'function' | 'base_units' = 'function') =>
  pickLine({ variantId: '2501', variant: CARPET, pricingMode, labels: EN, locale: 'en', value: undefined, factors });

describe('the picker of a variant made from dimensions', () => {
  it('when it renders, then it asks the length and shows the fixed width', () => {
    expect(pickerFields(CARPET, EN).factors).toEqual([
      { label: 'Length (m)', number: { min: '0.5', step: '0.01', max: '50', value: '1' } },
      { label: 'Width (m)', fixed: '4 m' },
    ]);
  });

  it('when 2.35 m is given, then the line is 10.34 m² at $299.86 with the factors and the overage shown', () => {
    const line = pick([2.35]);
    expect(line.ok).toBe(true);
    if (!line.ok) return;
    expect(line.linePrice).toBe('299.86');
    expect(line.item.quantity).toBe(1);
    expect(line.visible).toEqual([
      { name: 'Area', value: '10.34 m2' },
      { name: 'Dimensions', value: '2.35 m × 4 m' },
      { name: 'Overage', value: 'Includes 10% extra' },
    ]);
    const svc = validateSvcData(line.item.properties['_svc_data'], {
      unit: 'm2',
      factors: { dimensions: CARPET.dimensions, overagePercent: 10, rules: CARPET.rules },
    });
    expect(svc.ok && svc.data.measurement.dimensions.map((d) => d.value)).toEqual([10.34, 2.35, 4]);
  });

  it.each([
    ['no length', [undefined], ['Enter the length in m']],
    [
      'a length off its increment',
      [2.345],
      [expect.stringContaining('2.345 m is not a multiple of the increment 0.01 m')],
    ],
    ['a length below its minimum', [0.2], [expect.stringContaining('0.2 m is below the minimum 0.5 m')]],
  ])('when the customer gives %s, then the line is refused with a message for the field', (_, factors, reasons) => {
    expect(pick(factors)).toEqual({ ok: false, reasons });
  });

  it('when the shop prices by base units, then a measure made from dimensions is refused, not mispriced', () => {
    expect(pick([2.35], 'base_units')).toEqual({
      ok: false,
      reasons: ['A measure made from dimensions is charged by the checkout function only'],
    });
  });
});
