import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type FactorsConfig,
  dimensionsFromFactors,
  dimensionsSettingsIssues,
  factorIssues,
  formatFactors,
  measureFromFactors,
} from './dimensions.js';
import { UNIT_CATALOGUE } from './units.js';
import { validateSvcData } from './svc-data.js';

const rules = (min: number, increment: number, max: number | null = null) => ({
  min,
  increment,
  defaultValue: min || increment,
  max,
});

/** PRODUCT.md §19's carpet: per m², off a 4 m roll, 10 % overage, sold by the 0.01 m². */
const CARPET: FactorsConfig = {
  dimensions: [
    { name: 'length', unit: 'm', rules: rules(0.1, 0.01, 30) },
    { name: 'width', unit: 'm', fixed: 4 },
  ],
  overagePercent: 10,
  rules: rules(0.01, 0.01),
};
const TIMBER: FactorsConfig = {
  dimensions: [
    { name: 'length', unit: 'ft', rules: rules(1, 1) },
    { name: 'width', unit: 'ft', rules: rules(1, 1) },
    { name: 'height', unit: 'yd', rules: rules(0.5, 0.5) },
  ],
};
const len = (value: number, unit: string, name?: string) => (name ? { value, unit, name } : { value, unit });

describe('measureFromFactors over mixed length units', () => {
  it.each([
    ['the carpet of §19: 2.35 m × 4 m + 10 % by 0.01', [len(2.35, 'm'), len(4, 'm')], 'm2', CARPET, '10.34'],
    ['2.5 m of the carpet', [len(2.5, 'm'), len(4, 'm')], 'm2', CARPET, '11'],
    ['30 cm × 12 in in cm²', [len(30, 'cm'), len(12, 'in')], 'cm2', {}, '914.4'],
    ['30 cm × 12 in in in², rounded up at 9 places', [len(30, 'cm'), len(12, 'in')], 'in2', {}, '141.732283465'],
    ['1.5 in × 7 in in cm²', [len(1.5, 'in'), len(7, 'in')], 'cm2', {}, '67.7418'],
    ['2 ft × 3 ft × 1 yd in ft³', [len(2, 'ft'), len(3, 'ft'), len(1, 'yd')], 'ft3', {}, '18'],
    [
      '2 ft × 3 ft × 1 yd in m³, rounded up at 9 places',
      [len(2, 'ft'), len(3, 'ft'), len(1, 'yd')],
      'm3',
      {},
      '0.509703239',
    ],
    ['2 ft × 3 ft × 1 yd in litres', [len(2, 'ft'), len(3, 'ft'), len(1, 'yd')], 'L', {}, '509.703238656'],
    [
      'a piece smaller than min, rounded up to min',
      [len(10, 'cm'), len(10, 'cm')],
      'm2',
      { rules: rules(0.5, 0.25) },
      '0.5',
    ],
    ['an exact grid point, not rounded', [len(1, 'm'), len(0.5, 'm')], 'm2', { rules: rules(0.25, 0.25) }, '0.5'],
    ['an overage of 0.5 %', [len(2, 'm'), len(1, 'm')], 'm2', { overagePercent: 0.5 }, '2.01'],
  ])('when the factors are %s, then the measure is exact', (_, factors, unit, config, expected) => {
    expect(measureFromFactors(factors, unit, config)).toEqual({ value: Number(expected), text: expected });
  });
});

describe('factorIssues names every refusal', () => {
  const carpetLine = (first: number, ...factors: unknown[]) => [len(first, 'm2'), ...factors];

  it('when a line carries what dimensionsFromFactors built, then nothing is refused', () => {
    const built = dimensionsFromFactors([2.35], 'm2', CARPET);
    expect(built).toEqual([len(10.34, 'm2'), len(2.35, 'm', 'length'), len(4, 'm', 'width')]);
    expect(factorIssues(built, CARPET)).toEqual([]);
  });

  it('when the factors are in other length units than the settings, then they are converted exactly', () => {
    expect(factorIssues(carpetLine(10.34, len(235, 'cm'), len(4000, 'mm')), CARPET)).toEqual([]);
    expect(factorIssues([len(18, 'ft3'), len(24, 'in'), len(1, 'yd'), len(3, 'ft')], TIMBER)).toEqual([]);
  });

  it.each([
    [
      'factors for a variant configured without them',
      [len(1, 'kg'), len(1, 'm')],
      {},
      'factors_not_configured',
      'measurement.dimensions[1]',
    ],
    ['a missing factor', carpetLine(10.34, len(2.35, 'm')), CARPET, 'factor_missing', 'measurement.dimensions[2]'],
    [
      'one factor too many',
      carpetLine(10.34, len(2.35, 'm'), len(4, 'm'), len(1, 'm')),
      CARPET,
      'factor_unexpected',
      'measurement.dimensions[3]',
    ],
    [
      'a factor that is text',
      carpetLine(10.34, '2.35 m', len(4, 'm')),
      CARPET,
      'factor_invalid',
      'measurement.dimensions[1]',
    ],
    [
      'a factor value that is a string',
      carpetLine(10.34, { value: '2.35', unit: 'm' }, len(4, 'm')),
      CARPET,
      'factor_invalid',
      'measurement.dimensions[1].value',
    ],
    [
      'a factor in kilograms',
      carpetLine(10.34, len(2.35, 'kg'), len(4, 'm')),
      CARPET,
      'factor_invalid',
      'measurement.dimensions[1].unit',
    ],
    [
      'a factor under another name',
      carpetLine(10.34, len(2.35, 'm', 'depth'), len(4, 'm')),
      CARPET,
      'factor_invalid',
      'measurement.dimensions[1].name',
    ],
    [
      'a changed fixed width',
      carpetLine(7.76, len(2.35, 'm'), len(3, 'm')),
      CARPET,
      'factor_fixed_changed',
      'measurement.dimensions[2].value',
    ],
    [
      'a length below its min',
      carpetLine(0.44, len(0.05, 'm'), len(4, 'm')),
      CARPET,
      'factor_outside_rules',
      'measurement.dimensions[1].value',
    ],
    [
      'a length above its max',
      carpetLine(136.4, len(31, 'm'), len(4, 'm')),
      CARPET,
      'factor_outside_rules',
      'measurement.dimensions[1].value',
    ],
    [
      'a length off its increment',
      carpetLine(10.34, len(2.345, 'm'), len(4, 'm')),
      CARPET,
      'factor_outside_rules',
      'measurement.dimensions[1].value',
    ],
    [
      'a measure the factors do not make',
      carpetLine(9.4, len(2.35, 'm'), len(4, 'm')),
      CARPET,
      'measure_mismatch',
      'measurement.dimensions[0].value',
    ],
    [
      'a measure without the overage',
      carpetLine(9.4, len(2.35, 'm'), len(4, 'm')),
      CARPET,
      'measure_mismatch',
      'measurement.dimensions[0].value',
    ],
  ])('when a line has %s, then it is refused by name at its path', (_, dimensions, config, reason, path) => {
    const issues = factorIssues(dimensions, config);
    expect(issues.map((i) => [i.reason, i.path])).toEqual([[reason, path]]);
    expect(issues[0]?.message).toMatch(/\S/);
  });

  it('when a line has no factor at all, then each is missing, the fixed one too', () => {
    expect(factorIssues(carpetLine(10.34), CARPET)).toEqual([
      { reason: 'factor_missing', path: 'measurement.dimensions[1]', message: 'the length is missing' },
      { reason: 'factor_missing', path: 'measurement.dimensions[2]', message: 'the width is missing' },
    ]);
  });

  it('when the measure is within 10^-9 of what the factors make, either way, then it is accepted', () => {
    const made = [len(30, 'cm'), len(12, 'in')];
    expect(factorIssues([len(141.732283465, 'in2'), ...made], {})).toEqual([
      expect.objectContaining({ reason: 'factors_not_configured' }),
    ]);
    const free: FactorsConfig = {
      dimensions: [
        { name: 'a', unit: 'cm', rules: rules(1, 1) },
        { name: 'b', unit: 'in', rules: rules(1, 1) },
      ],
    };
    expect(factorIssues([len(141.732283465, 'in2'), ...made], free)).toEqual([]);
    expect(factorIssues([len(141.732283464, 'in2'), ...made], free)).toEqual([]);
    expect(factorIssues([len(141.732283466, 'in2'), ...made], free).map((i) => i.reason)).toEqual(['measure_mismatch']);
  });

  it('when a line goes through validateSvcData with the variant factors, then the reasons carry the path', () => {
    const raw = JSON.stringify({
      measurement: { type: 'area', dimensions: carpetLine(10.34, len(2.35, 'm'), len(3, 'm')) },
    });
    expect(validateSvcData(raw, { unit: 'm2', factors: CARPET })).toEqual({
      ok: false,
      reasons: ['measurement.dimensions[2].value: 3 m is not the fixed width 4 m'],
    });
    expect(validateSvcData(raw, { unit: 'm2' }).ok).toBe(true);
  });
});

describe('dimensionsSettingsIssues', () => {
  it('when the carpet and the timber are configured, then there is no issue', () => {
    expect(dimensionsSettingsIssues({ displayStyle: 'number', ...CARPET }, 'area')).toEqual([]);
    expect(dimensionsSettingsIssues({ displayStyle: 'number', ...TIMBER }, 'volume')).toEqual([]);
    expect(dimensionsSettingsIssues({ displayStyle: 'number' }, 'weight')).toEqual([]);
  });

  it('when everything is wrong at once, then every issue is listed at its pointer', () => {
    const bad = {
      displayStyle: 'pills',
      overagePercent: 101,
      dimensions: [
        { name: 'length', unit: 'kg', rules: rules(0, 0) },
        { name: 'length', unit: 'm', fixed: 4, rules: rules(1, 1) },
      ],
    };
    expect(dimensionsSettingsIssues(bad, 'area')).toEqual([
      { path: '/overagePercent', message: 'must be a number from 0 to 100' },
      { path: '/displayStyle', message: "must be 'number' when the measure is made from dimensions" },
      { path: '/dimensions/0/unit', message: expect.stringContaining('must be a length unit') },
      { path: '/dimensions/0/rules/increment', message: 'must be a number > 0' },
      { path: '/dimensions/0/rules/defaultValue', message: 'must be a number > 0' },
      { path: '/dimensions/1/name', message: "'length' names another dimension too" },
      { path: '/dimensions/1', message: 'must have exactly one of rules or fixed' },
    ]);
  });

  it.each([
    ['weight', 2, '/dimensions', 'only area (2 factors) and volume (3 factors) are made from dimensions, not weight'],
    ['volume', 2, '/dimensions', 'volume is made from 3 dimensions'],
    ['area', 3, '/dimensions', 'area is made from 2 dimensions'],
  ])('when a %s variant has %i dimensions, then it is refused', (type, count, path, message) => {
    const dimensions = Array.from({ length: count }, (_, i) => ({ name: `d${i}`, unit: 'm', fixed: 1 }));
    expect(dimensionsSettingsIssues({ dimensions }, type)).toEqual([{ path, message }]);
  });

  it('when an overage is stated without dimensions, then it is refused', () => {
    expect(dimensionsSettingsIssues({ overagePercent: 10 }, 'area')).toEqual([
      { path: '/overagePercent', message: 'applies only to a variant with dimensions' },
    ]);
  });
});

it('formatFactors writes the factors as the customer gave them', () => {
  expect(formatFactors([len(2.35, 'm'), len(4, 'm')])).toBe('2.35 m × 4 m');
  expect(formatFactors([len(1e-7, 'km'), len(3, 'ft'), len(1, 'yd')])).toBe('0.0000001 km × 3 ft × 1 yd');
});

/**
 * The rule against a model written apart, in decimal.js at a precision no input exhausts: the
 * product of the factors in metres times the overage, divided last by the target unit's size in
 * m² or m³ (a quotient that does not terminate is off by far less than any grid step), then up to
 * the grid from min, then up to 9 decimal places.
 */
describe('measureFromFactors against an exact model', () => {
  const D = Decimal.clone({ precision: 200, toExpNeg: -200, toExpPos: 200 });
  const lengths = UNIT_CATALOGUE.length.units;
  const positive = (maxInt: number, maxScale: number) =>
    fc
      .tuple(fc.integer({ min: 1, max: maxInt }), fc.integer({ min: 0, max: maxScale }))
      .map(([k, d]) => Number(new D(k).div(new D(10).pow(d)).toString()));
  const factor = fc.record({ value: positive(100_000, 4), unit: fc.constantFrom(...lengths.map((u) => u.id)) });
  const target = fc.oneof(
    fc.record({
      type: fc.constant('area' as const),
      unit: fc.constantFrom(...UNIT_CATALOGUE.area.units.map((u) => u.id)),
    }),
    fc.record({
      type: fc.constant('volume' as const),
      unit: fc.constantFrom(...UNIT_CATALOGUE.volume.units.map((u) => u.id)),
    }),
  );
  const sizeOf = (unit: string) =>
    [...UNIT_CATALOGUE.length.units, ...UNIT_CATALOGUE.area.units, ...UNIT_CATALOGUE.volume.units].find(
      (u) => u.id === unit,
    )!.factor;

  it('when any factors, target unit, overage and grid are given, then the measure is the model', () => {
    fc.assert(
      fc.property(
        target,
        fc.array(factor, { minLength: 3, maxLength: 3 }),
        fc.option(
          positive(10_000, 2).filter((p) => p <= 100),
          { nil: undefined },
        ),
        fc.option(
          fc.tuple(
            fc.nat({ max: 1000 }).map((k) => k / 100),
            positive(500, 3),
          ),
          { nil: undefined },
        ),
        ({ type, unit }, three, overagePercent, grid) => {
          const factors = type === 'area' ? three.slice(0, 2) : three;
          const config: FactorsConfig = { overagePercent, rules: grid ? rules(grid[0], grid[1]) : undefined };

          let metres = new D(1);
          for (const f of factors) metres = metres.times(f.value).times(sizeOf(f.unit));
          const perTarget = type === 'volume' ? new D(sizeOf(unit)).div(1000) : new D(sizeOf(unit));
          let model = metres
            .times(new D(100).plus(overagePercent ?? 0))
            .div(100)
            .div(perTarget);
          if (grid) {
            const [min, step] = grid;
            const k = D.max(0, model.minus(min).div(step).ceil());
            model = new D(min).plus(k.times(step));
          }
          const expected = model.toDecimalPlaces(9, Decimal.ROUND_CEIL).toFixed();

          const got = measureFromFactors(factors, unit, config);
          expect(got.text).toBe(expected);
          // A JSON number holds ~15 significant digits: the round trip only where it holds the text.
          if (String(got.value) !== expected) return;
          const line = [{ value: got.value, unit }, ...factors];
          const settings = factors.map((f, i) => ({ name: `f${i}`, unit: f.unit, fixed: f.value }));
          expect(factorIssues(line, { ...config, dimensions: settings })).toEqual([]);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
