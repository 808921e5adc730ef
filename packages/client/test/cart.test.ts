import { describe, expect, it } from 'vitest';
import { unitsOf, validateSvcData, type MeasurementType } from '@tare/contracts';
import {
  CartInputError,
  buildLineItemProperties,
  cartLinePrice,
  cartVariantId,
  checkMeasurementRules,
  numericVariantId,
  onlineStoreIssues,
  renderTemplate,
  validateLineItemProperties,
  type BuildLineItemInput,
  type MeasurementRulesVariant,
} from '../src/index.js';

/** Labels shaped like the server's en defaults for weight/kg. */
const EN_KG = {
  unitPrice: 'Unit price',
  unitPrice_weight_value_kg: '{Price}/{Quantity}',
  netWeight: 'Net weight',
  netWeight_value_kg: '{Value} {Unit}',
};

/** The labels a shop with unit pricing on has for the price per its reference quantity. */
const REFERENCE_LABELS = { referenceUnitPrice: 'Price per measure', referenceUnitPriceValue: '{UnitPrice}' };

function input(over: Partial<BuildLineItemInput> = {}): BuildLineItemInput {
  return {
    product: { id: '10', measurementType: 'weight' },
    variant: { id: '20', unitMeasurement: { unit: 'kg', value: 1 } },
    labels: EN_KG,
    measurement: { value: 2.5, unit: 'kg' },
    price: '24',
    currency: 'USD',
    locale: 'en-US',
    ...over,
  };
}

function svc(props: { name: string; value: string }[]): Record<string, unknown> {
  const first = props[0];
  expect(first?.name).toBe('_svc_data');
  return JSON.parse(first?.value ?? 'null') as Record<string, unknown>;
}

function thrown(fn: () => unknown): CartInputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CartInputError);
    return e as CartInputError;
  }
  throw new Error('expected a CartInputError');
}

describe('renderTemplate', () => {
  it.each([
    ['{Price}/{Quantity}', 1, 'kg', '$24.00/kg', 'quantity 1 drops the number'],
    ['{Price}/{Quantity}', 1.0, 'kg', '$24.00/kg', 'a "1.0"-like number is 1'],
    ['{Price}/{Quantity}', 2.5, 'kg', '$24.00/2.5kg', 'quantity not 1 keeps the number, no space'],
    ['{Price}/{Quantity}', 100, 'g', '$24.00/100g', 'a unit measurement of 100 g'],
    ['{Price} / {Quantity_With_Space}', 1, 'kg', '$24.00 / kg', 'with space, quantity 1'],
    ['{Quantity_With_Space}', 2.5, 'kg', '2.5 kg', 'with space, quantity not 1'],
    ['{Quantity_With_Space}', 100, 'g', '100 g', 'with space, 100 g'],
    ['{Value} {Unit}', 1, 'kg', '1 kg', '{Value} is the number even when it is 1'],
    ['{Value} {Unit}', 2.5, 'kg', '2.5 kg', '{Value} and {Unit}'],
    ['{Value}', 1e-7, 'kg', '0.0000001', 'tiny numbers are plain decimals'],
    ['{Price}/{Foo} {Unit}', 2, 'L', '$24.00/{Foo} L', 'an unknown token is kept'],
    ['{price} {Quantity}', 2, 'L', '{price} 2L', 'tokens are case-sensitive'],
  ])('when the template is %s with quantity %s %s, then it renders %s (%s)', (template, quantity, unit, expected) => {
    expect(renderTemplate(template, { price: '$24.00', quantity, unit })).toBe(expected);
  });

  it('when no price is given, then {Price} is kept', () => {
    expect(renderTemplate('{Price}/{Quantity}', { quantity: 2, unit: 'kg' })).toBe('{Price}/2kg');
  });
});

describe('buildLineItemProperties', () => {
  it('when the line is 2.5 kg at $24/kg with en labels, then it gives _svc_data, unit price and net weight', () => {
    const props = buildLineItemProperties(input());
    expect(props).toEqual([
      { name: '_svc_data', value: expect.any(String) },
      { name: 'Unit price', value: '$24.00/kg' },
      { name: 'Net weight', value: '2.5 kg' },
    ]);
    expect(svc(props)).toEqual({
      measurement: { type: 'weight', dimensions: [{ unit: 'kg', value: 2.5 }] },
      unitMeasurement: { unit: 'kg', value: 1 },
      properties: { 'Unit price': '$24.00/kg', 'Net weight': '2.5 kg' },
    });
  });

  it('when the variant unit measurement is 100 g, then the unit price reads /100g', () => {
    const props = buildLineItemProperties(
      input({
        variant: { id: '20', unitMeasurement: { unit: 'g', value: 100 } },
        measurement: { value: 250, unit: 'g' },
        price: '2.5',
        labels: { unitPrice: 'Unit price', unitPrice_weight_value_g: '{Price}/{Quantity}' },
      }),
    );
    expect(props.slice(1)).toEqual([{ name: 'Unit price', value: '$2.50/100g' }]);
  });

  it.each([
    ['{Quantity_With_Space}', 1, 'kg'],
    ['{Quantity}', 1, 'kg'],
    ['{Value} {Unit}', 1, '1 kg'],
    ['{Quantity_With_Space}', 2.5, '2.5 kg'],
  ])('when the net template is %s and the measurement is %s kg, then the net value is %s', (tpl, value, expected) => {
    const props = buildLineItemProperties(
      input({ labels: { netWeight: 'Net weight', netWeight_value_kg: tpl }, measurement: { value, unit: 'kg' } }),
    );
    expect(props.slice(1)).toEqual([{ name: 'Net weight', value: expected }]);
  });

  it('when the variant has a unit price and the shop its labels, then the line shows it after the price', () => {
    const props = buildLineItemProperties(
      input({
        variant: {
          id: '20',
          unitMeasurement: { unit: 'g', value: 250 },
          unitPrice: { amount: '1.92', currency: 'EUR', reference: { value: 100, unit: 'g' } },
        },
        measurement: { value: 250, unit: 'g' },
        price: '4.80',
        currency: 'EUR',
        labels: {
          unitPrice: 'Unit price',
          unitPrice_weight_value_g: '{Price}/{Quantity}',
          ...REFERENCE_LABELS,
        },
      }),
    );
    expect(props.slice(1)).toEqual([
      { name: 'Unit price', value: '€4.80/250g' },
      { name: 'Price per measure', value: '€1.92/100g' },
    ]);
    expect(svc(props).properties).toEqual({ 'Unit price': '€4.80/250g', 'Price per measure': '€1.92/100g' });
  });

  it('when the variant is sold per its reference quantity, then the price is not said twice', () => {
    const props = buildLineItemProperties(
      input({
        variant: {
          id: '20',
          unitMeasurement: { unit: 'kg', value: 1 },
          unitPrice: { amount: '24.00', currency: 'USD', reference: { value: 1, unit: 'kg' } },
        },
        measurement: { value: 2.5, unit: 'kg' },
        price: '24.00',
        currency: 'USD',
        labels: {
          unitPrice: 'Unit price',
          unitPrice_weight_value_kg: '{Price}/{Quantity}',
          ...REFERENCE_LABELS,
        },
      }),
    );
    expect(props.slice(1)).toEqual([{ name: 'Unit price', value: '$24.00/kg' }]);
  });

  it('when the line is exactly a preset with its own unit price, then the line shows that one', () => {
    const props = buildLineItemProperties(
      input({
        variant: {
          id: '20',
          unitMeasurement: { unit: 'g', value: 250 },
          unitPrice: { amount: '19.20', currency: 'EUR', reference: { value: 1, unit: 'kg' } },
          settings: {
            onlineStore: {
              presets: [
                { value: 500, unitPrice: { amount: '18.00', currency: 'EUR', reference: { value: 1, unit: 'kg' } } },
              ],
            },
          },
        },
        measurement: { value: 500, unit: 'g' },
        currency: 'EUR',
        labels: REFERENCE_LABELS,
      }),
    );
    expect(props.slice(1)).toEqual([{ name: 'Price per measure', value: '€18.00/kg' }]);
  });

  it('when the shop has unit pricing off (no unitPrice, no labels), then no such property', () => {
    expect(buildLineItemProperties(input({ labels: REFERENCE_LABELS })).slice(1)).toEqual([]);
  });

  it('when the price is formatted for another locale and currency, then Intl formats it', () => {
    const props = buildLineItemProperties(input({ locale: 'de-DE', currency: 'EUR', price: '1234.5' }));
    const expected = `${new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(1234.5)}/kg`;
    expect(props[1]).toEqual({ name: 'Unit price', value: expected });
  });

  it.each([
    ['the label set is empty', {}, []],
    ['there is no unitPrice label', { unitPrice_weight_value_kg: '{Price}/{Quantity}' }, []],
    ['unitPrice has no template for the unit', { unitPrice: 'Unit price', unitPrice_weight_value_lb: '{Price}' }, []],
    ['unitPrice has a template of another type', { unitPrice: 'Unit price', unitPrice_length_value_kg: '{Price}' }, []],
    [
      'there are no net templates',
      { unitPrice: 'Unit price', unitPrice_weight_value_kg: '{Price}/{Quantity}' },
      ['Unit price'],
    ],
    ['the net template is missing its label', { netWeight_value_kg: '{Value} {Unit}' }, []],
    ['the net label has no template for the unit', { netWeight: 'Net weight', netWeight_value_g: '{Value}' }, []],
    ['only the net pair exists', { netWeight: 'Poids net', netWeight_value_kg: '{Value} {Unit}' }, ['Poids net']],
  ])('when %s, then only the matching properties follow _svc_data', (_case, labels, names) => {
    const props = buildLineItemProperties(input({ labels }));
    expect(props.map((p) => p.name)).toEqual(['_svc_data', ...names]);
    expect(Object.keys(svc(props)['properties'] as object)).toEqual(names);
  });

  const oneUnitPerType: [MeasurementType, string, string][] = [
    ['weight', 'lb', 'netWeight'],
    ['length', 'm', 'netLength'],
    ['area', 'm2', 'netArea'],
    ['volume', 'L', 'netVolume'],
    ['time', 'h', 'netTime'],
  ];
  it.each(oneUnitPerType)(
    'when the product type is %s in %s, then %s and the unit price template are used',
    (type, unit, net) => {
      expect(unitsOf(type)).toContain(unit);
      const labels = {
        unitPrice: 'Unit price',
        [`unitPrice_${type}_value_${unit}`]: '{Price}/{Quantity}',
        [net]: 'Net',
        [`${net}_value_${unit}`]: '{Value} {Unit}',
      };
      const props = buildLineItemProperties(
        input({
          product: { id: '1', measurementType: type },
          variant: { id: '2', unitMeasurement: { unit, value: 1 } },
          measurement: { value: 3, unit },
          labels,
        }),
      );
      expect(props.slice(1)).toEqual([
        { name: 'Unit price', value: `$24.00/${unit}` },
        { name: 'Net', value: `3 ${unit}` },
      ]);
      expect(svc(props)['measurement']).toEqual({ type, dimensions: [{ unit, value: 3 }] });
      expect(validateLineItemProperties(props, { unitMeasurement: { unit } })).toEqual([]);
    },
  );

  it.each([
    [
      'the value is 0',
      { measurement: { value: 0, unit: 'kg' } },
      /measurement\.value must be a finite number greater than 0/,
    ],
    ['the value is negative', { measurement: { value: -1, unit: 'kg' } }, /greater than 0/],
    ['the value is NaN', { measurement: { value: NaN, unit: 'kg' } }, /finite/],
    ['the value is Infinity', { measurement: { value: Infinity, unit: 'kg' } }, /finite/],
    ['the unit is of another type', { measurement: { value: 1, unit: 'm' } }, /'m' is not a weight unit/],
    ['the unit is unknown', { measurement: { value: 1, unit: 'KG' } }, /'KG' is not a weight unit/],
    [
      'the unit is not the variant unit',
      { measurement: { value: 1, unit: 'lb' } },
      /measurement\.unit 'lb' must equal the variant's unit 'kg'/,
    ],
    ['the price is not decimal text', { price: '$24' }, /price must be decimal text/],
  ])('when %s, then a CartInputError lists the reason', (_case, over, pattern) => {
    const err = thrown(() => buildLineItemProperties(input(over)));
    expect(err.reasons.some((r) => pattern.test(r))).toBe(true);
  });

  it('when several inputs are wrong, then every reason is listed', () => {
    const err = thrown(() => buildLineItemProperties(input({ measurement: { value: 0, unit: 'm' } })));
    expect(err.reasons).toHaveLength(3);
  });
});

describe('checkMeasurementRules', () => {
  const numberVariant = (min: number, increment: number, max: number | null): MeasurementRulesVariant => ({
    settings: { onlineStore: { displayStyle: 'number', rules: { min, increment, defaultValue: min, max } } },
  });

  it.each([
    [0.3, 0, 0.1, null, []],
    [0.7, 0.1, 0.1, null, []],
    [0.35, 0, 0.1, null, ['0.35 is not a multiple of the increment 0.1 from 0']],
    [1, 0.25, 0.25, 10, []],
    [1.1, 0.25, 0.25, 10, ['1.1 is not a multiple of the increment 0.25 from 0.25']],
    [0.6, 0.1, 0.25, null, []],
    [0.5, 0.1, 0.25, null, ['0.5 is not a multiple of the increment 0.25 from 0.1']],
    [0.2, 0.25, 0.25, null, ['0.2 is below the minimum 0.25', '0.2 is not a multiple of the increment 0.25 from 0.25']],
    [0.25, 0.25, 0.25, 2, []],
    [2, 0.25, 0.25, 2, []],
    [2.25, 0.25, 0.25, 2, ['2.25 is above the maximum 2']],
    [1000000, 1, 1, null, []],
    [3, 1, 0.5, null, []],
  ])(
    'when the value is %s with min %s, increment %s, max %s, then the reasons are %j',
    (value, min, inc, max, reasons) => {
      expect(checkMeasurementRules(value, numberVariant(min, inc, max))).toEqual(reasons);
    },
  );

  it('when 0.3 is on a 0.1 grid, then float modulo would have failed but the exact check passes', () => {
    expect(0.3 % 0.1).not.toBe(0);
    expect(checkMeasurementRules(0.3, numberVariant(0, 0.1, null))).toEqual([]);
  });

  const presetVariant = (style: 'pills' | 'dropdown', values: number[]): MeasurementRulesVariant => ({
    settings: { onlineStore: { displayStyle: style, presets: values.map((value) => ({ value })) } },
  });

  it.each([
    ['pills', 0.5, [0.5, 1, 2], []],
    ['dropdown', 2, [0.5, 1, 2], []],
    ['pills', 1.5, [0.5, 1, 2], ['1.5 is not one of the presets (0.5, 1, 2)']],
    ['dropdown', 0.3, [0.1, 0.2], ['0.3 is not one of the presets (0.1, 0.2)']],
    ['pills', 1, [], ['1 is not one of the presets ()']],
  ] as const)(
    'when the style is %s and the value is %s with presets %j, then the reasons are %j',
    (style, value, values, reasons) => {
      expect(checkMeasurementRules(value, presetVariant(style, [...values]))).toEqual(reasons);
    },
  );

  it('when the value is not finite, then it is reported', () => {
    expect(checkMeasurementRules(NaN, numberVariant(0, 1, null))).toEqual(['NaN is not a finite number']);
  });
});

describe('onlineStoreIssues', () => {
  it('when a default is off the grid (225 from 100 by 50), then the settings check says why in the words the value check uses', () => {
    const store = { displayStyle: 'number', rules: { min: 100, increment: 50, defaultValue: 225, max: null } };
    const reasons = checkMeasurementRules(225, { settings: { onlineStore: store } });
    expect(reasons).toEqual(['225 is not a multiple of the increment 50 from 100']);
    expect(onlineStoreIssues(store)).toEqual(reasons.map((message) => ({ path: '/rules/defaultValue', message })));
  });

  it('when a default is above max, then the settings check names it', () => {
    const store = { displayStyle: 'number', rules: { min: 1, increment: 1, defaultValue: 60, max: 50 } };
    expect(onlineStoreIssues(store)).toEqual([{ path: '/rules/defaultValue', message: '60 is above the maximum 50' }]);
  });
});

describe('validateLineItemProperties', () => {
  it('when a built line is checked against its variant, then there are no reasons', () => {
    const props = buildLineItemProperties(input());
    expect(validateLineItemProperties(props, { unitMeasurement: { unit: 'kg' } })).toEqual([]);
    expect(validateSvcData(props[0]?.value, { unit: 'kg' }).ok).toBe(true);
  });

  it('when _svc_data is absent, then "_svc_data is missing"', () => {
    expect(
      validateLineItemProperties([{ name: 'Net weight', value: '1 kg' }], { unitMeasurement: { unit: 'kg' } }),
    ).toEqual(['_svc_data is missing']);
  });

  it.each([
    ['not JSON', '{', { unit: 'kg' }],
    ['a bad type', '{"measurement":{"type":"mass","dimensions":[{"value":1,"unit":"kg"}]}}', { unit: 'kg' }],
    [
      'another unit than the variant',
      '{"measurement":{"type":"weight","dimensions":[{"value":1,"unit":"lb"}]}}',
      { unit: 'kg' },
    ],
  ])('when _svc_data is %s, then the validator reasons are returned', (_case, value, unitMeasurement) => {
    const reasons = validateLineItemProperties([{ name: '_svc_data', value }], { unitMeasurement });
    const expected = validateSvcData(value, unitMeasurement);
    expect(expected.ok).toBe(false);
    expect(reasons).toEqual(expected.ok ? [] : expected.reasons);
    expect(reasons.length).toBeGreaterThan(0);
  });
});

describe('variant ids', () => {
  it.each([
    ['shopify', '123', 'gid://shopify/ProductVariant/123'],
    ['shopify', 'gid://shopify/ProductVariant/456', 'gid://shopify/ProductVariant/456'],
  ])('when the platform is %s and the id %s, then the cart id is %s', (platform, id, gid) => {
    expect(cartVariantId(platform, id)).toBe(gid);
  });

  it.each([
    ['123', '123'],
    ['gid://shopify/ProductVariant/123', '123'],
  ])('when the id is %s, then the numeric id is %s', (id, numeric) => {
    expect(numericVariantId(id)).toBe(numeric);
  });

  it.each([
    '',
    'abc',
    '12a',
    '-1',
    'gid://shopify/Product/123',
    'gid://shopify/ProductVariant/',
    'gid:///ProductVariant/1',
  ])('when the id is %j, then numericVariantId throws', (id) => {
    expect(() => numericVariantId(id)).toThrow(CartInputError);
  });

  it('when the platform is not a plain name, then cartVariantId throws', () => {
    expect(() => cartVariantId('a/b', '1')).toThrow(CartInputError);
  });
});

describe('cartLinePrice', () => {
  const presets = [{ value: 1, label: '1 kg bag', price: '39.00' }, { value: 0.5 }];
  const kg = { unitMeasurement: { unit: 'kg', value: 1 }, settings: { onlineStore: { presets } } };

  it.each([
    ['the measurement is a preset with its own price', kg, { value: 1, unit: 'kg' }, '42.00', 'USD', '39.00'],
    ['the measurement is a preset without a price', kg, { value: 0.5, unit: 'kg' }, '42.00', 'USD', '21.00'],
    ['the measurement is no preset', kg, { value: 0.75, unit: 'kg' }, '42.00', 'USD', '31.50'],
    ['the line is not measured', kg, undefined, '42.00', 'USD', '42.00'],
    [
      'the variant is sold per 100 g',
      { unitMeasurement: { unit: 'g', value: 100 } },
      { value: 250, unit: 'g' },
      '2.40',
      'USD',
      '6.00',
    ],
    ['the currency is yen', { unitMeasurement: { unit: 'kg', value: 1 } }, { value: 0.5, unit: 'kg' }, '5', 'JPY', '2'],
    [
      'the currency is dinars',
      { unitMeasurement: { unit: 'kg', value: 1 } },
      { value: 0.3, unit: 'kg' },
      '4.250',
      'BHD',
      '1.275',
    ],
  ])('when %s, then one unit of the line costs %s', (_name, variant, measurement, price, currency, expected) => {
    expect(cartLinePrice({ variant, measurement, price, currency })).toBe(expected);
  });

  it.each([
    [
      'the measurement is in another unit',
      { value: 1000, unit: 'g' },
      '42.00',
      'USD',
      "measurement.unit 'g' must equal the variant's unit 'kg'",
    ],
    [
      'the price is not decimal text',
      { value: 1, unit: 'kg' },
      '42,00',
      'USD',
      'the variant price is not a decimal number: 42,00',
    ],
    ['the currency is not one', { value: 1, unit: 'kg' }, '42.00', 'US', 'Invalid currency code : US'],
  ])('when %s, then it throws CartInputError naming it', (_name, measurement, price, currency, reason) => {
    const run = () => cartLinePrice({ variant: kg, measurement, price, currency });

    expect(run).toThrow(CartInputError);
    expect(() => run()).toThrow(expect.objectContaining({ reasons: [expect.stringContaining(reason)] }));
  });
});
