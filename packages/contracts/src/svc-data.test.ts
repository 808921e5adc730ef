import { describe, expect, it } from 'vitest';
import { serializeSvcData, validateSvcData, withMeasurement, type ServiceData } from './svc-data.js';
import { MEASUREMENT_TYPES, UNIT_CATALOGUE, isMeasurementType, typeOfUnit, unitsOf } from './units.js';

const TYPES_REASON = 'measurement.type must be one of weight, length, area, volume, time';
const WEIGHT_UNIT_REASON = 'measurement.dimensions[0].unit must be a weight unit (one of mg, g, kg, t, oz, lb, st)';
const DIMS_REASON = 'measurement.dimensions must be a non-empty array';
const VALUE0_REASON = 'measurement.dimensions[0].value must be a number greater than 0';

const minimum = { measurement: { type: 'weight', dimensions: [{ value: 1.5, unit: 'kg' }] } };
const full = {
  measurement: {
    type: 'length',
    dimensions: [
      { value: 2, unit: 'm' },
      { value: 30, unit: 'cm' },
    ],
  },
  unitMeasurement: { unit: 'm', value: 1 },
  properties: { 'Net length': '2 m', note: 'cut to size' },
};

/** `minimum` with `measurement` (or its first dimension) patched. */
const withDim0 = (dim0: unknown) => ({ measurement: { type: 'weight', dimensions: [dim0] } });
const json = (x: unknown) => JSON.stringify(x);

function expectOk(raw: string | undefined, variant?: { unit: string }): ServiceData {
  const result = validateSvcData(raw, variant);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.reasons)}`);
  return result.data;
}

describe('validateSvcData: valid shapes', () => {
  it.each([
    { name: 'the minimum shape', value: minimum, variant: undefined },
    { name: 'the minimum shape and the matching variant unit', value: minimum, variant: { unit: 'kg' } },
    { name: 'the full shape with unitMeasurement and properties', value: full, variant: { unit: 'm' } },
    {
      name: 'a later dimension of another type',
      value: {
        measurement: {
          type: 'area',
          dimensions: [
            { value: 1, unit: 'm2' },
            { value: 3, unit: 'kg' },
          ],
        },
      },
      variant: undefined,
    },
    { name: 'empty properties', value: { ...minimum, properties: {} }, variant: undefined },
    { name: 'a tiny positive value', value: withDim0({ value: 1e-9, unit: 'g' }), variant: undefined },
  ])('when given $name, then it is accepted as is', ({ value, variant }) => {
    expect(expectOk(json(value), variant)).toEqual(value);
  });

  it('when the JSON has surrounding whitespace, then it is accepted', () => {
    expect(expectOk(`  ${json(minimum)}\n`)).toEqual(minimum);
  });
});

describe('validateSvcData: each failure alone', () => {
  it.each([
    { name: 'the value is undefined', raw: undefined, reason: '_svc_data is missing' },
    { name: 'the value is not JSON', raw: '{measurement:', reason: '_svc_data is not valid JSON' },
    { name: 'the value is empty', raw: '', reason: '_svc_data is not valid JSON' },
    { name: 'the JSON is an array', raw: json([minimum]), reason: '_svc_data must be a JSON object' },
    { name: 'the JSON is a string', raw: json(json(minimum)), reason: '_svc_data must be a JSON object' },
    { name: 'the JSON is null', raw: 'null', reason: '_svc_data must be a JSON object' },
    { name: 'the JSON is a number', raw: '42', reason: '_svc_data must be a JSON object' },
    { name: 'measurement is missing', raw: json({}), reason: 'measurement must be an object' },
    { name: 'measurement is an array', raw: json({ measurement: [] }), reason: 'measurement must be an object' },
    {
      name: 'measurement.type is unknown',
      raw: json({ measurement: { type: 'mass', dimensions: [{ value: 1, unit: 'kg' }] } }),
      reason: TYPES_REASON,
    },
    {
      name: 'measurement.type is missing',
      raw: json({ measurement: { dimensions: [{ value: 1, unit: 'kg' }] } }),
      reason: TYPES_REASON,
    },
    {
      name: 'measurement.type has the wrong case',
      raw: json({ measurement: { type: 'Weight', dimensions: [{ value: 1, unit: 'kg' }] } }),
      reason: TYPES_REASON,
    },
    { name: 'dimensions is missing', raw: json({ measurement: { type: 'weight' } }), reason: DIMS_REASON },
    {
      name: 'dimensions is empty',
      raw: json({ measurement: { type: 'weight', dimensions: [] } }),
      reason: DIMS_REASON,
    },
    {
      name: 'dimensions is an object',
      raw: json({ measurement: { type: 'weight', dimensions: { value: 1, unit: 'kg' } } }),
      reason: DIMS_REASON,
    },
    {
      name: 'dimensions[0] is not an object',
      raw: json(withDim0('1 kg')),
      reason: 'measurement.dimensions[0] must be an object with value and unit',
    },
    { name: 'dimensions[0].value is 0', raw: json(withDim0({ value: 0, unit: 'kg' })), reason: VALUE0_REASON },
    { name: 'dimensions[0].value is -1', raw: json(withDim0({ value: -1, unit: 'kg' })), reason: VALUE0_REASON },
    { name: 'dimensions[0].value is "1.5"', raw: json(withDim0({ value: '1.5', unit: 'kg' })), reason: VALUE0_REASON },
    { name: 'dimensions[0].value is missing', raw: json(withDim0({ unit: 'kg' })), reason: VALUE0_REASON },
    { name: 'dimensions[0].value is null', raw: json(withDim0({ value: null, unit: 'kg' })), reason: VALUE0_REASON },
    {
      name: 'dimensions[0].value overflows to Infinity',
      raw: '{"measurement":{"type":"weight","dimensions":[{"value":1e999,"unit":"kg"}]}}',
      reason: VALUE0_REASON,
    },
    { name: 'dimensions[0].unit is missing', raw: json(withDim0({ value: 1 })), reason: WEIGHT_UNIT_REASON },
    {
      name: 'dimensions[0].unit is of another type',
      raw: json(withDim0({ value: 1, unit: 'm' })),
      reason: WEIGHT_UNIT_REASON,
    },
    {
      name: 'dimensions[0].unit has the wrong case',
      raw: json(withDim0({ value: 1, unit: 'KG' })),
      reason: WEIGHT_UNIT_REASON,
    },
    {
      name: 'a later dimension is not an object',
      raw: json({ measurement: { type: 'weight', dimensions: [{ value: 1, unit: 'kg' }, 3] } }),
      reason: 'measurement.dimensions[1] must be an object with value and unit',
    },
    {
      name: 'a later dimension has value 0',
      raw: json({
        measurement: {
          type: 'weight',
          dimensions: [
            { value: 1, unit: 'kg' },
            { value: 1, unit: 'kg' },
            { value: 0, unit: 'kg' },
          ],
        },
      }),
      reason: 'measurement.dimensions[2].value must be a number greater than 0',
    },
    {
      name: 'a later dimension has an unknown unit',
      raw: json({
        measurement: {
          type: 'weight',
          dimensions: [
            { value: 1, unit: 'kg' },
            { value: 1, unit: 'furlong' },
          ],
        },
      }),
      reason: 'measurement.dimensions[1].unit must be a known unit',
    },
    {
      name: 'unitMeasurement is not an object',
      raw: json({ ...minimum, unitMeasurement: 'kg' }),
      reason: 'unitMeasurement must be an object',
    },
    {
      name: 'unitMeasurement is null',
      raw: json({ ...minimum, unitMeasurement: null }),
      reason: 'unitMeasurement must be an object',
    },
    {
      name: 'unitMeasurement.unit is unknown',
      raw: json({ ...minimum, unitMeasurement: { unit: 'kilo', value: 1 } }),
      reason: 'unitMeasurement.unit must be a known unit',
    },
    {
      name: 'unitMeasurement.value is 0',
      raw: json({ ...minimum, unitMeasurement: { unit: 'kg', value: 0 } }),
      reason: 'unitMeasurement.value must be a number greater than 0',
    },
    {
      name: 'properties is an array',
      raw: json({ ...minimum, properties: ['a'] }),
      reason: 'properties must be an object mapping names to string values',
    },
    {
      name: 'a property value is a number',
      raw: json({ ...minimum, properties: { net: 'ok', count: 3 } }),
      reason: 'properties.count must be a string',
    },
    {
      name: 'a property with a spaced name is not a string',
      raw: json({ ...minimum, properties: { 'Net weight': null } }),
      reason: 'properties["Net weight"] must be a string',
    },
  ])('when $name, then the only reason is that', ({ raw, reason }) => {
    expect(validateSvcData(raw)).toEqual({ ok: false, reasons: [reason] });
  });
});

describe('validateSvcData: variant unit', () => {
  it.each([
    { name: 'the unit is another unit of the same type', unit: 'lb', variant: 'kg', extra: [] },
    { name: 'the unit differs only in case', unit: 'Kg', variant: 'kg', extra: [WEIGHT_UNIT_REASON] },
    { name: 'the unit is of another type', unit: 'L', variant: 'kg', extra: [WEIGHT_UNIT_REASON] },
    { name: 'the unit is missing', unit: undefined, variant: 'kg', extra: [WEIGHT_UNIT_REASON] },
  ])('when $name, then the variant mismatch is reported', ({ unit, variant, extra }) => {
    const raw = json(withDim0({ value: 1, unit }));
    expect(validateSvcData(raw, { unit: variant })).toEqual({
      ok: false,
      reasons: [...extra, `measurement.dimensions[0].unit must equal the variant's unit '${variant}'`],
    });
  });

  it('when no variant is given, then any unit of the type is accepted', () => {
    expect(validateSvcData(json(withDim0({ value: 1, unit: 'lb' }))).ok).toBe(true);
  });
});

describe('validateSvcData: several failures at once', () => {
  it.each([
    {
      name: 'type, first value and a later dimension are all wrong',
      value: {
        measurement: {
          type: 'mass',
          dimensions: [
            { value: 0, unit: 'kg' },
            { value: -2, unit: 'nope' },
          ],
        },
      },
      variant: undefined,
      reasons: [
        TYPES_REASON,
        VALUE0_REASON,
        'measurement.dimensions[1].value must be a number greater than 0',
        'measurement.dimensions[1].unit must be a known unit',
      ],
    },
    {
      name: 'value, unit, variant, unitMeasurement and properties are all wrong',
      value: {
        measurement: { type: 'weight', dimensions: [{ value: '1', unit: 'm' }] },
        unitMeasurement: { unit: 'x', value: -1 },
        properties: { a: 1, b: 'ok', c: false },
      },
      variant: { unit: 'kg' },
      reasons: [
        VALUE0_REASON,
        WEIGHT_UNIT_REASON,
        "measurement.dimensions[0].unit must equal the variant's unit 'kg'",
        'unitMeasurement.unit must be a known unit',
        'unitMeasurement.value must be a number greater than 0',
        'properties.a must be a string',
        'properties.c must be a string',
      ],
    },
    {
      name: 'measurement is missing and unitMeasurement is wrong',
      value: { unitMeasurement: {} },
      variant: undefined,
      reasons: [
        'measurement must be an object',
        'unitMeasurement.unit must be a known unit',
        'unitMeasurement.value must be a number greater than 0',
      ],
    },
    {
      name: 'type is wrong and dimensions is empty',
      value: { measurement: { type: 7, dimensions: [] } },
      variant: undefined,
      reasons: [TYPES_REASON, DIMS_REASON],
    },
    {
      name: 'type is wrong and the first unit is unknown',
      value: { measurement: { type: 'x', dimensions: [{ value: 1, unit: 'parsec' }] } },
      variant: undefined,
      reasons: [TYPES_REASON, 'measurement.dimensions[0].unit must be a known unit'],
    },
  ])('when $name, then every reason is returned in order', ({ value, variant, reasons }) => {
    expect(validateSvcData(json(value), variant)).toEqual({ ok: false, reasons });
  });
});

describe('validateSvcData: every type with its units', () => {
  const cases = MEASUREMENT_TYPES.flatMap((type) => UNIT_CATALOGUE[type].units.map((u) => ({ type, unit: u.id })));

  it.each(cases)('when the type is $type and the unit is $unit, then it is valid', ({ type, unit }) => {
    const value = { measurement: { type, dimensions: [{ value: 2.25, unit }] } };
    expect(expectOk(json(value), { unit })).toEqual(value);
  });

  it.each(MEASUREMENT_TYPES)('when the type is %s and the unit belongs to another type, then it is refused', (type) => {
    const other = MEASUREMENT_TYPES.find((t) => t !== type) ?? 'weight';
    const unit = UNIT_CATALOGUE[other].units[0]?.id ?? '';
    const result = validateSvcData(json({ measurement: { type, dimensions: [{ value: 1, unit }] } }));
    expect(result).toEqual({
      ok: false,
      reasons: [`measurement.dimensions[0].unit must be a ${type} unit (one of ${unitsOf(type).join(', ')})`],
    });
  });
});

describe('unknown fields', () => {
  const raw = json({
    version: 3,
    measurement: {
      type: 'weight',
      dimensions: [
        { value: 1, unit: 'kg', label: 'first', meta: { a: [1, 2] } },
        { value: 5, unit: 'cm', label: 'second' },
      ],
      precision: 2,
    },
    unitMeasurement: { unit: 'kg', value: 1, display: 'per kg' },
    properties: { 'Net weight': '1 kg' },
    extra: { nested: true },
  });

  it('when validated, then unknown fields are kept in data', () => {
    const data = expectOk(raw);
    expect(data).toEqual(JSON.parse(raw));
    expect(serializeSvcData(data)).toBe(raw);
  });

  it('when passed through withMeasurement and serialized, then only type and dimensions[0] value/unit change', () => {
    const data = expectOk(raw);
    const before = structuredClone(data);
    const edited = withMeasurement(data, { type: 'volume', value: 2.5, unit: 'L' });
    expect(data).toEqual(before);

    const expected = JSON.parse(raw) as ServiceData;
    expected.measurement.type = 'volume';
    expected.measurement.dimensions[0].value = 2.5;
    expected.measurement.dimensions[0].unit = 'L';
    const serialized = serializeSvcData(edited);
    expect(JSON.parse(serialized)).toEqual(expected);
    expect(validateSvcData(serialized, { unit: 'L' })).toEqual({ ok: true, data: expected });
  });

  it('when a key is "__proto__", then it is kept as data through the round trip', () => {
    const tricky = '{"__proto__":{"polluted":1},"measurement":{"type":"time","dimensions":[{"value":3,"unit":"h"}]}}';
    const data = expectOk(tricky);
    const out = serializeSvcData(withMeasurement(data, { type: 'time', value: 4, unit: 'h' }));
    expect(out).toContain('"__proto__":{"polluted":1}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('units catalogue helpers', () => {
  it.each([
    { unit: 'L', type: 'volume' },
    { unit: 'l', type: undefined },
    { unit: 'imp_gal', type: 'volume' },
    { unit: 'week', type: 'time' },
    { unit: 'constructor', type: undefined },
  ])('when asking the type of $unit, then it is $type', ({ unit, type }) => {
    expect(typeOfUnit(unit)).toBe(type);
  });

  it.each([
    { x: 'area', ok: true },
    { x: 'Area', ok: false },
    { x: 1, ok: false },
    { x: undefined, ok: false },
  ])('when checking $x as a measurement type, then it is $ok', ({ x, ok }) => {
    expect(isMeasurementType(x)).toBe(ok);
  });

  it.each(MEASUREMENT_TYPES)(
    'when listing the units of %s, then they follow the catalogue and include the base',
    (type) => {
      expect(unitsOf(type)).toEqual(UNIT_CATALOGUE[type].units.map((u) => u.id));
      expect(unitsOf(type)).toContain(UNIT_CATALOGUE[type].base);
    },
  );
});
