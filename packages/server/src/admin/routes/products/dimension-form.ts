import { type DimensionSetting, factorCount, unitsOf } from '@tare/contracts';
import type { VariantRecord } from '../../../store/repositories/catalog.js';

/**
 * The variant form's fields for a variant made from dimensions (PRODUCT.md §19): one fieldset per
 * factor (`factorName_0`, `factorUnit_0`, `factorFixed_0` or `factorMin_0` … `factorMax_0`) and
 * `overagePercent`, offered for area (2 factors) and volume (3) only. Every factor left blank is a
 * variant sold by its quantity directly (no dimensions, no overage).
 */

/** Every length unit, for a factor's unit select. */
export const LENGTH_UNITS = unitsOf('length');

/** The parts of a factor's fieldset, field prefix → label. */
const PARTS = {
  factorName: 'name',
  factorUnit: 'unit',
  factorFixed: 'fixed value',
  factorMin: 'minimum',
  factorIncrement: 'increment',
  factorDefault: 'default value',
  factorMax: 'maximum',
} as const;
type Part = keyof typeof PARTS;
const RULE_PARTS = ['factorMin', 'factorIncrement', 'factorDefault', 'factorMax'] as const;

export const DIMENSION_FIELD = /^(overagePercent|factor(Name|Unit|Fixed|Min|Increment|Default|Max)_[0-2])$/;

/** The form's text for a stored variant's factors and overage. */
export function storedDimensionValues(variant: Pick<VariantRecord, 'dimensions' | 'overagePercent'>) {
  const values: Record<string, string> = { overagePercent: variant.overagePercent ?? '' };
  (variant.dimensions ?? []).forEach((dim, i) => {
    values[`factorName_${i}`] = dim.name;
    values[`factorUnit_${i}`] = dim.unit;
    values[`factorFixed_${i}`] = dim.fixed === undefined ? '' : String(dim.fixed);
    values[`factorMin_${i}`] = dim.rules ? String(dim.rules.min) : '';
    values[`factorIncrement_${i}`] = dim.rules ? String(dim.rules.increment) : '';
    values[`factorDefault_${i}`] = dim.rules ? String(dim.rules.defaultValue) : '';
    values[`factorMax_${i}`] = dim.rules?.max === null || !dim.rules ? '' : String(dim.rules.max);
  });
  return values;
}

/** The factor fieldsets to show: as many as the type is made from (none but for area and volume). */
export function factorIndexes(measurementType: string): number[] {
  return Array.from({ length: factorCount(measurementType) }, (_, i) => i);
}

/** `Width minimum`, `Factor 2 name`: a factor's field, named by the factor's name when it has one. */
export function labelOfFactorField(name: string, values: Record<string, string>): string | undefined {
  if (name === 'overagePercent') return 'Overage percent';
  if (name === 'dimensions') return 'Dimensions';
  const match = /^(factor[A-Za-z]*)_(\d)$/.exec(name);
  if (!match) return undefined;
  const i = Number(match[2]);
  const named = (values[`factorName_${i}`] ?? '').trim();
  const factor = named ? named.replace(/^./, (c) => c.toUpperCase()) : `Factor ${i + 1}`;
  const part = PARTS[match[1] as Part];
  return part ? `${factor} ${part}` : factor;
}

const isBlank = (values: Record<string, string>, name: string) => !(values[name] ?? '').trim();

/**
 * The factors and overage as the import states them, or nothing when the form has no factor
 * fields (the new product and new variant forms, the forms of other types): then the stored ones
 * are kept. Numbers are read
 * by `number`, which records a typed number it cannot read; both a fixed value and rules typed are
 * both sent, for the shared check to say "exactly one of rules or fixed" beside the factor.
 */
export function parseDimensionFields(
  values: Record<string, string>,
  number: (name: string) => number,
): { dimensions?: DimensionSetting[]; overagePercent?: number } | undefined {
  if (!('factorName_0' in values) && !('overagePercent' in values)) return undefined;
  const indexes = [0, 1, 2].filter((i) => `factorName_${i}` in values);
  const typed = (i: number) =>
    (Object.keys(PARTS) as Part[]).some((p) => p !== 'factorUnit' && !isBlank(values, `${p}_${i}`));
  const overage = isBlank(values, 'overagePercent') ? undefined : number('overagePercent');
  if (!indexes.some(typed)) return overage === undefined ? {} : { overagePercent: overage };
  const dimensions = indexes.map((i): DimensionSetting => {
    const hasRules = RULE_PARTS.some((p) => !isBlank(values, `${p}_${i}`));
    return {
      name: (values[`factorName_${i}`] ?? '').trim(),
      unit: (values[`factorUnit_${i}`] ?? '').trim(),
      ...(isBlank(values, `factorFixed_${i}`) ? {} : { fixed: number(`factorFixed_${i}`) }),
      ...(hasRules
        ? {
            rules: {
              min: number(`factorMin_${i}`),
              increment: number(`factorIncrement_${i}`),
              defaultValue: number(`factorDefault_${i}`),
              max: isBlank(values, `factorMax_${i}`) ? null : number(`factorMax_${i}`),
            },
          }
        : {}),
    };
  });
  return { dimensions, ...(overage === undefined ? {} : { overagePercent: overage }) };
}

const FACTOR_PATH =
  /^\/settings\/onlineStore\/dimensions\/(\d)(?:\/(name|unit|fixed|rules)(?:\/(min|increment|defaultValue|max))?)?$/;
const RULE_FIELD: Record<string, string> = {
  min: 'factorMin',
  increment: 'factorIncrement',
  defaultValue: 'factorDefault',
  max: 'factorMax',
};

/** The form field an issue about the factors or overage belongs to (undefined: not about them). */
export function fieldOfDimensionIssue(path: string): string | undefined {
  if (path === '/settings/onlineStore/overagePercent') return 'overagePercent';
  if (path === '/settings/onlineStore/dimensions') return 'dimensions';
  const match = FACTOR_PATH.exec(path);
  if (!match) return undefined;
  const [, i, part, rule] = match;
  // The factor as a whole (exactly one of rules or fixed): beside its fixed value, where it is chosen.
  if (!part) return `factorFixed_${i}`;
  if (part === 'rules') return `${rule ? RULE_FIELD[rule] : 'factorMin'}_${i}`;
  return `factor${part.replace(/^./, (c) => c.toUpperCase())}_${i}`;
}
