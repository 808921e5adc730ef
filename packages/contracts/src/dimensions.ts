/**
 * Area and volume from dimensions (PRODUCT.md §19): a line's `measurement.dimensions[0]` is the
 * measured quantity; the entries after it are the lengths ("factors") it was made from, two for
 * `area`, three for `volume`. The one rule, shared by the import and the admin (the settings), the
 * cart helper and the picker (building a line), the sandbox cart and the checkout function
 * (pricing it) and the server (booking it): the product of the factors, converted exactly into the
 * unit of `dimensions[0]`, times `1 + overagePercent/100`, rounded up to the variant's increment
 * from its `min`, equals `dimensions[0].value` to 9 decimal places. Exact, over BigInt fractions.
 */
import { plainNumber, pow10, toScaled } from './exact-decimal.js';
import { MEASURE_DECIMALS } from './bookable-measure.js';
import { type MeasurementRules, type SettingsIssue, onlineStoreIssues } from './measurement-rules.js';
import { type MeasurementType, typeOfUnit, unitDefinition, unitsOf } from './units.js';

/** One configured factor of a variant (`settings.onlineStore.dimensions[i]`). */
export interface DimensionSetting {
  /** What the customer is asked for (`length`, `width`); the line's factor carries it. */
  name: string;
  /** A length unit: the factor's rules and fixed value are in it. */
  unit: string;
  /** Exactly one of `rules` (the customer chooses) or `fixed` (the shop states it). */
  rules?: MeasurementRules;
  fixed?: number;
}

/** What the rule needs of a variant: its factors, its overage and the rules of the measured quantity. */
export interface FactorsConfig {
  dimensions?: readonly DimensionSetting[] | null;
  /** 0–100: the extra sold for waste (10 → the measure is 110 % of the product of the factors). */
  overagePercent?: number | null;
  /** The variant's own rules: the measure is rounded up to `increment` from `min`. */
  rules?: MeasurementRules | null;
}

/** Every way a line's factors are refused, by name. */
export const FACTOR_REASONS = [
  /** Entries after `dimensions[0]` for a variant configured without factors. */
  'factors_not_configured',
  /** Fewer factors than the variant has. */
  'factor_missing',
  /** More factors than the variant has. */
  'factor_unexpected',
  /** Not an object `{ value > 0, unit: a length unit, name? }`, or another factor's name. */
  'factor_invalid',
  /** A fixed factor stated with another value. */
  'factor_fixed_changed',
  /** A factor below its `min`, above its `max` or off its increment. */
  'factor_outside_rules',
  /** `dimensions[0]` is not what the factors make. */
  'measure_mismatch',
] as const;
export type FactorReason = (typeof FACTOR_REASONS)[number];

/** Why a line's factors are refused: `path` below `_svc_data` (`measurement.dimensions[2].value`). */
export interface FactorIssue {
  reason: FactorReason;
  path: string;
  message: string;
}

/** How many factors a measurement type is made from (0: none). */
export function factorCount(type: MeasurementType | string): number {
  return type === 'area' ? 2 : type === 'volume' ? 3 : 0;
}

/** An exact positive fraction n / d (d > 0). */
interface Fraction {
  n: bigint;
  d: bigint;
}

const fraction = (x: number | string): Fraction => {
  const s = toScaled(x);
  return { n: s.int, d: pow10(s.scale) };
};
const times = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.n, d: a.d * b.d });
const over = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d, d: a.d * b.n });
const minus = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d - b.n * a.d, d: a.d * b.d });
const plus = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
/** Sign of a − b. */
const compare = (a: Fraction, b: Fraction): number => {
  const diff = a.n * b.d - b.n * a.d;
  return diff > 0n ? 1 : diff < 0n ? -1 : 0;
};
/** The smallest integer ≥ f. */
const ceil = (f: Fraction): bigint => {
  const q = f.n / f.d; // truncates toward zero
  return f.n % f.d !== 0n && f.n > 0n ? q + 1n : q;
};

/** A length in metres, or a length unit's size: exact. */
const unitSize = (unit: string): Fraction => fraction(unitDefinition(unit)?.factor ?? '1');

/**
 * Size of one unit of `unit` (area or volume) in metres squared or cubed: volume's catalogue is in
 * litres, and 1 L is 1/1000 m³.
 */
function sizeInMetres(unit: string): Fraction {
  const size = unitSize(unit);
  return typeOfUnit(unit) === 'volume' ? over(size, { n: 1000n, d: 1n }) : size;
}

/** A fraction as decimal text rounded up to 9 decimal places, trailing zeros dropped. */
function ceilText(f: Fraction): string {
  const scaled = ceil(times(f, { n: pow10(MEASURE_DECIMALS), d: 1n }));
  const digits = scaled.toString().padStart(MEASURE_DECIMALS + 1, '0');
  const whole = digits.slice(0, digits.length - MEASURE_DECIMALS);
  const frac = digits.slice(digits.length - MEASURE_DECIMALS).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** The measure the factors make, exactly, before the 9 decimal places (see `measureFromFactors`). */
function exactMeasure(
  factors: readonly { value: number; unit: string }[],
  unit: string,
  config: FactorsConfig,
): Fraction {
  let product: Fraction = { n: 1n, d: 1n };
  for (const f of factors) product = times(product, times(fraction(f.value), unitSize(f.unit)));
  let measure = over(product, sizeInMetres(unit));
  const overage = config.overagePercent ?? 0;
  if (overage) measure = times(measure, over(plus({ n: 100n, d: 1n }, fraction(overage)), { n: 100n, d: 1n }));
  const rules = config.rules;
  if (rules && rules.increment > 0) {
    const min = fraction(rules.min);
    const step = fraction(rules.increment);
    // Up to the grid from min; a measure below min is rounded up to min (the grid's first point).
    const k = ceil(over(minus(measure, min), step));
    measure = plus(min, times(step, { n: k > 0n ? k : 0n, d: 1n }));
  }
  return measure;
}

/**
 * The measured quantity (`dimensions[0].value`, in `unit`) that `factors` make for a variant:
 * their product converted exactly into `unit`, times 1 + overage/100, rounded up to the rules'
 * increment from `min` (a measure below `min` becomes `min`), then up to 9 decimal places.
 * The factors must be valid (`factorIssues`); this does not check them.
 * @example measureFromFactors([{ value: 2.35, unit: 'm' }, { value: 4, unit: 'm' }], 'm2', { overagePercent: 10, rules: { min: 0.01, increment: 0.01, defaultValue: 1, max: null } })
 *   // { value: 10.34, text: '10.34' }
 */
export function measureFromFactors(
  factors: readonly { value: number; unit: string }[],
  unit: string,
  config: FactorsConfig,
): { value: number; text: string } {
  const text = ceilText(exactMeasure(factors, unit, config));
  return { value: Number(text), text };
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isPositive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
const LENGTH_UNITS = unitsOf('length').join(', ');

/** Why a factor (in any length unit) breaks its setting's rules or fixed value. */
function settingIssues(value: number, unit: string, setting: DimensionSetting, at: string): FactorIssue[] {
  const inSetting = over(times(fraction(value), unitSize(unit)), unitSize(setting.unit));
  const stated = `${plainNumber(value)} ${unit}`;
  if (setting.fixed !== undefined) {
    if (compare(inSetting, fraction(setting.fixed)) === 0) return [];
    const fixed = `${plainNumber(setting.fixed)} ${setting.unit}`;
    return [
      {
        reason: 'factor_fixed_changed',
        path: `${at}.value`,
        message: `${stated} is not the fixed ${setting.name} ${fixed}`,
      },
    ];
  }
  const rules = setting.rules;
  if (!rules) return [];
  const issues: FactorIssue[] = [];
  const outside = (why: string) =>
    issues.push({ reason: 'factor_outside_rules', path: `${at}.value`, message: `${stated} is ${why}` });
  const min = fraction(rules.min);
  if (compare(inSetting, min) < 0) outside(`below the minimum ${plainNumber(rules.min)} ${setting.unit}`);
  if (rules.max !== null && compare(inSetting, fraction(rules.max)) > 0) {
    outside(`above the maximum ${plainNumber(rules.max)} ${setting.unit}`);
  }
  const steps = over(minus(inSetting, min), fraction(rules.increment));
  if (steps.n % steps.d !== 0n) {
    outside(
      `not a multiple of the increment ${plainNumber(rules.increment)} ${setting.unit} from ${plainNumber(rules.min)}`,
    );
  }
  return issues;
}

/**
 * Why the factors of a line (`measurement.dimensions`, the whole array) break the variant's
 * configuration (empty when they do not), every issue listed, each named (`FACTOR_REASONS`) at its
 * path below `_svc_data`. `dimensions[0]` itself must already be valid (`validateSvcData`).
 * The measure may differ from what the factors make by less than 10^-9 of its unit (the 9 decimal
 * places Tare keeps), in either direction.
 * @example factorIssues([{ value: 10.34, unit: 'm2' }, { value: 2.35, unit: 'm' }, { value: 4, unit: 'm' }], carpet) // []
 */
export function factorIssues(dimensions: readonly unknown[], config: FactorsConfig): FactorIssue[] {
  const settings = config.dimensions ?? [];
  const given = dimensions.slice(1);
  const path = (i: number) => `measurement.dimensions[${i + 1}]`;
  if (settings.length === 0) {
    if (given.length === 0) return [];
    return [
      {
        reason: 'factors_not_configured',
        path: path(0),
        message: 'the variant is sold by its quantity directly: no entry after dimensions[0]',
      },
    ];
  }
  const issues: FactorIssue[] = [];
  settings.forEach((setting, i) => {
    const at = path(i);
    const factor = given[i];
    if (factor === undefined) {
      issues.push({ reason: 'factor_missing', path: at, message: `the ${setting.name} is missing` });
      return;
    }
    if (!isRecord(factor)) {
      issues.push({
        reason: 'factor_invalid',
        path: at,
        message: `the ${setting.name} must be an object with value and unit`,
      });
      return;
    }
    const { value, unit, name } = factor;
    const before = issues.length;
    if (!isPositive(value)) {
      issues.push({ reason: 'factor_invalid', path: `${at}.value`, message: 'must be a number greater than 0' });
    }
    if (typeof unit !== 'string' || typeOfUnit(unit) !== 'length') {
      issues.push({
        reason: 'factor_invalid',
        path: `${at}.unit`,
        message: `must be a length unit (one of ${LENGTH_UNITS})`,
      });
    }
    if (name !== undefined && name !== setting.name) {
      issues.push({ reason: 'factor_invalid', path: `${at}.name`, message: `must be '${setting.name}' or absent` });
    }
    if (issues.length === before) issues.push(...settingIssues(value as number, unit as string, setting, at));
  });
  for (let i = settings.length; i < given.length; i += 1) {
    issues.push({
      reason: 'factor_unexpected',
      path: path(i),
      message: `one too many: the variant has ${settings.length} (${settings.map((s) => s.name).join(', ')})`,
    });
  }
  if (issues.length > 0) return issues;

  const first = dimensions[0] as { value: number; unit: string };
  const factors = given as { value: number; unit: string }[];
  const made = exactMeasure(factors, first.unit, config);
  const gap = minus(fraction(first.value), made);
  const tolerance: Fraction = { n: 1n, d: pow10(MEASURE_DECIMALS) };
  if (compare({ n: gap.n < 0n ? -gap.n : gap.n, d: gap.d }, tolerance) >= 0) {
    const expected = ceilText(made);
    issues.push({
      reason: 'measure_mismatch',
      path: 'measurement.dimensions[0].value',
      message: `${plainNumber(first.value)} ${first.unit} is not what the factors make (${formatFactors(factors)} → ${expected} ${first.unit})`,
    });
  }
  return issues;
}

/**
 * The factors as the customer gave them, for the `{Dimensions}` label token.
 * @example formatFactors([{ value: 2.35, unit: 'm' }, { value: 4, unit: 'm' }]) // '2.35 m × 4 m'
 */
export function formatFactors(factors: readonly { value: number; unit: string }[]): string {
  return factors.map((f) => `${plainNumber(f.value)} ${f.unit}`).join(' × ');
}

/**
 * `measurement.dimensions` for a line of a variant with factors: the measure they make, then each
 * factor (a fixed one at its fixed value, whatever `values` holds for it) with its setting's name.
 * @param values the customer's values, one per setting, each in its setting's unit.
 * @example dimensionsFromFactors([2.35, 4], 'm2', carpet) // [{ value: 10.34, unit: 'm2' }, { value: 2.35, unit: 'm', name: 'length' }, { value: 4, unit: 'm', name: 'width' }]
 */
export function dimensionsFromFactors(
  values: readonly number[],
  unit: string,
  config: FactorsConfig,
): [{ value: number; unit: string }, ...{ value: number; unit: string; name: string }[]] {
  const factors = (config.dimensions ?? []).map((s, i) => ({
    value: s.fixed ?? values[i] ?? NaN,
    unit: s.unit,
    name: s.name,
  }));
  return [{ value: measureFromFactors(factors, unit, config).value, unit }, ...factors];
}

/**
 * Why a variant's `dimensions` and `overagePercent` cannot be offered (empty when they can), at
 * JSON pointers below `settings.onlineStore`: factors only for `area` (2) and `volume` (3), each
 * with a name of its own, a length unit and exactly one of `rules` (valid as a variant's rules
 * are) or `fixed` (> 0); the measure itself chosen by `number` style; `overagePercent` 0–100 and
 * only with factors.
 */
export function dimensionsSettingsIssues(
  store: { displayStyle?: string; dimensions?: readonly DimensionSetting[] | null; overagePercent?: number | null },
  measurementType: MeasurementType | string,
): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  const dims = store.dimensions;
  const overage = store.overagePercent;
  if (overage !== undefined && overage !== null) {
    if (typeof overage !== 'number' || !Number.isFinite(overage) || overage < 0 || overage > 100) {
      issues.push({ path: '/overagePercent', message: 'must be a number from 0 to 100' });
    } else if (!dims) {
      issues.push({ path: '/overagePercent', message: 'applies only to a variant with dimensions' });
    }
  }
  if (dims === undefined || dims === null) return issues;
  const count = factorCount(measurementType);
  if (count === 0) {
    issues.push({
      path: '/dimensions',
      message: `only area (2 factors) and volume (3 factors) are made from dimensions, not ${measurementType}`,
    });
    return issues;
  }
  if (!Array.isArray(dims) || dims.length !== count) {
    issues.push({ path: '/dimensions', message: `${measurementType} is made from ${count} dimensions` });
    return issues;
  }
  if (store.displayStyle !== undefined && store.displayStyle !== 'number') {
    issues.push({ path: '/displayStyle', message: "must be 'number' when the measure is made from dimensions" });
  }
  dims.forEach((dim: DimensionSetting, i) => {
    const at = `/dimensions/${i}`;
    if (!isRecord(dim)) {
      issues.push({ path: at, message: 'must be an object { name, unit, rules or fixed }' });
      return;
    }
    if (typeof dim.name !== 'string' || dim.name.trim() === '') {
      issues.push({ path: `${at}/name`, message: 'must be a non-empty string' });
    } else if (dims.findIndex((d) => isRecord(d) && d.name === dim.name) < i) {
      issues.push({ path: `${at}/name`, message: `'${dim.name}' names another dimension too` });
    }
    if (typeof dim.unit !== 'string' || typeOfUnit(dim.unit) !== 'length') {
      issues.push({ path: `${at}/unit`, message: `must be a length unit (one of ${LENGTH_UNITS})` });
    }
    const hasRules = dim.rules !== undefined && dim.rules !== null;
    const hasFixed = dim.fixed !== undefined && dim.fixed !== null;
    if (hasRules === hasFixed) {
      issues.push({ path: at, message: 'must have exactly one of rules or fixed' });
    } else if (hasFixed) {
      if (!isPositive(dim.fixed)) issues.push({ path: `${at}/fixed`, message: 'must be a number > 0' });
    } else {
      for (const issue of onlineStoreIssues({ displayStyle: 'number', rules: dim.rules })) {
        issues.push({ path: `${at}${issue.path}`, message: issue.message });
      }
    }
  });
  return issues;
}
