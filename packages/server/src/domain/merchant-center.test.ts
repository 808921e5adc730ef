import { describe, expect, it } from 'vitest';
import { merchantCenterUnitPricing } from './merchant-center.js';

describe('merchantCenterUnitPricing', () => {
  it.each([
    [{ value: 250, unit: 'g' }, 'weight', { value: 1, unit: 'kg' }, '250 g', '1 kg'],
    [{ value: 250, unit: 'g' }, 'weight', { value: 100, unit: 'g' }, '250 g', '100 g'],
    [{ value: 12, unit: 'floz' }, 'volume', { value: 1, unit: 'L' }, '12 floz', '1 l'],
    [{ value: 750, unit: 'ml' }, 'volume', { value: 750, unit: 'ml' }, '750 ml', '750 ml'],
    [{ value: 2.5, unit: 'ft2' }, 'area', { value: 1, unit: 'm2' }, '2.5 sqft', '1 sqm'],
    [{ value: 1, unit: 'm3' }, 'volume', { value: 1, unit: 'L' }, '1 cbm', '1 l'],
    // Units Google does not read are stated exactly in kg, l, m or sqm.
    [{ value: 2, unit: 't' }, 'weight', { value: 1, unit: 'kg' }, '2000 kg', '1 kg'],
    [{ value: 1, unit: 'imp_floz' }, 'volume', { value: 1, unit: 'L' }, '0.0284130625 l', '1 l'],
    [{ value: 1, unit: 'ha' }, 'area', { value: 1, unit: 'm2' }, '10000 sqm', '1 sqm'],
    [{ value: 3, unit: 'mm' }, 'length', { value: 1, unit: 'm' }, '0.003 m', '1 m'],
  ] as const)('when %j of %s is priced per %j, then the measure is %s and the base %s', (measured, type, ref, m, b) => {
    expect(merchantCenterUnitPricing(measured, type, ref)).toEqual({
      unit_pricing_measure: m,
      unit_pricing_base_measure: b,
    });
  });

  it.each([[{ value: 3, unit: 'kg' }], [{ value: 1, unit: 'st' }], [{ value: 0.5, unit: 'kg' }]])(
    'when the reference %j is not a base Google takes, then the base is left out and the note says why',
    (ref) => {
      const attributes = merchantCenterUnitPricing({ value: 250, unit: 'g' }, 'weight', ref);
      expect(attributes.unit_pricing_measure).toBe('250 g');
      expect(attributes).not.toHaveProperty('unit_pricing_base_measure');
      expect(attributes.note).toContain(`does not take ${ref.value} ${ref.unit} as a base measure`);
    },
  );
});
