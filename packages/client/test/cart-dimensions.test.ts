import { describe, expect, it } from 'vitest';
import {
  CartInputError,
  buildLineItemProperties,
  validateLineItemProperties,
  type BuildLineItemInput,
} from '../src/index.js';

// PRODUCT.md §19: a carpet sold per m² off a 4 m roll, 10 % overage, by the 0.01 m².
const CARPET_STORE = {
  rules: { min: 0.01, increment: 0.01, defaultValue: 4.4, max: null },
  dimensions: [
    { name: 'length', unit: 'm', rules: { min: 0.5, increment: 0.01, defaultValue: 1, max: 50 } },
    { name: 'width', unit: 'm', fixed: 4 },
  ],
  overagePercent: 10,
};
const LABELS = {
  netArea: 'Area',
  netArea_value_m2: '{Value} {Unit}',
  dimensions: 'Dimensions',
  dimensions_value: '{Dimensions}',
  overage: 'Overage',
  overage_value: 'Includes {Percent}% extra',
};

function carpet(over: Partial<BuildLineItemInput> = {}): BuildLineItemInput {
  return {
    product: { id: '1006', measurementType: 'area' },
    variant: { id: '2501', unitMeasurement: { unit: 'm2', value: 1 }, settings: { onlineStore: CARPET_STORE } },
    labels: LABELS,
    factors: [2.35],
    price: '29.00',
    currency: 'USD',
    locale: 'en-US',
    ...over,
  };
}

const reasonsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof CartInputError) return error.reasons;
    throw error;
  }
  throw new Error('did not throw');
};

describe('buildLineItemProperties with factors', () => {
  it('when 2.35 m of the carpet is asked for, then dimensions[0] is 10.34 m² and the factors and overage are shown', () => {
    const properties = buildLineItemProperties(carpet());

    expect(JSON.parse(properties[0]!.value).measurement).toEqual({
      type: 'area',
      dimensions: [
        { value: 10.34, unit: 'm2' },
        { value: 2.35, unit: 'm', name: 'length' },
        { value: 4, unit: 'm', name: 'width' },
      ],
    });
    expect(properties.slice(1)).toEqual([
      { name: 'Area', value: '10.34 m2' },
      { name: 'Dimensions', value: '2.35 m × 4 m' },
      { name: 'Overage', value: 'Includes 10% extra' },
    ]);
    expect(validateLineItemProperties(properties, carpet().variant)).toEqual([]);
  });

  it('when the shop has no dimension labels, then only the hidden property carries the factors', () => {
    const properties = buildLineItemProperties(carpet({ labels: {} }));
    expect(properties.map((p) => p.name)).toEqual(['_svc_data']);
  });

  it.each([
    ['a missing length', carpet({ factors: [] }), ['the length is missing']],
    [
      'a length off its increment',
      carpet({ factors: [2.345] }),
      [expect.stringContaining('not a multiple of the increment 0.01 m')],
    ],
    ['a length above its max', carpet({ factors: [51] }), [expect.stringContaining('above the maximum 50 m')]],
    [
      'factors for a variant without dimensions',
      carpet({ variant: { id: '2201', unitMeasurement: { unit: 'm2', value: 1 } } }),
      ['factors were given, but the variant is not made from dimensions'],
    ],
  ])('when the input has %s, then it is refused with the reason', (_, given, reasons) => {
    expect(reasonsOf(() => buildLineItemProperties(given))).toEqual(reasons);
  });

  it('when a line says a measure its factors do not make, then validateLineItemProperties refuses it', () => {
    const properties = buildLineItemProperties(carpet());
    const forged = properties[0]!.value.replace('10.34', '9.4');
    expect(validateLineItemProperties([{ name: '_svc_data', value: forged }], carpet().variant)).toEqual([
      expect.stringMatching(/^measurement\.dimensions\[0\]\.value: 9\.4 m2 is not what the factors make/),
    ]);
  });
});
