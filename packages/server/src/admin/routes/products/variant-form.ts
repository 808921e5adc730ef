import { dimensionsSettingsIssues, onlineStoreIssues } from '@tare/contracts';
import type { ImportVariant } from '../../../services/catalog-import/import-document.js';
import type { VariantRecord } from '../../../store/repositories/catalog.js';
import type { EditIssue, VariantSettings } from './product-edits.js';
import { field } from '../../forms.js';
import { readTypedNumber } from '../../typed-number.js';
import {
  DIMENSION_FIELD,
  fieldOfDimensionIssue,
  labelOfFactorField,
  parseDimensionFields,
  storedDimensionValues,
} from './dimension-form.js';
import { issueAtPlace, issueInWords, placeInWords, ruleInWords } from '../../../messages/issue-words.js';

/** Blank rows the variant form offers below the presets, to add some. */
export const BLANK_PRESET_ROWS = 3;

/** The variant form's fields as text: what is stored, or what the staff member typed. */
export type VariantValues = Record<string, string>;

export interface PresetRow {
  value: string;
  label: string;
  price: string;
}

/** The form's values for a stored variant. */
export function storedValues(variant: VariantRecord): VariantValues {
  const rules = variant.rules;
  const values: VariantValues = {
    unit: variant.unit,
    unitValue: variant.unitValue,
    displayStyle: variant.displayStyle,
    min: rules ? String(rules.min) : '',
    increment: rules ? String(rules.increment) : '',
    defaultValue: rules ? String(rules.defaultValue) : '',
    max: rules?.max === null || !rules ? '' : String(rules.max),
    ...storedDimensionValues(variant),
  };
  (variant.presets ?? []).forEach((preset, k) => {
    values[`presetValue_${k}`] = String(preset.value);
    values[`presetLabel_${k}`] = preset.label ?? '';
    values[`presetPrice_${k}`] = preset.price ?? '';
  });
  return values;
}

/** The fields of the variant forms (a new variant's id, title and price, then its settings). */
const VARIANT_FIELD =
  /^(variantId|variantTitle|price|unit|unitValue|displayStyle|min|increment|defaultValue|max|preset(Value|Label|Price)_\d{1,3})$/;

/** The values of a posted form (or preview query), text as typed. */
export function postedValues(body: unknown): VariantValues {
  const values: VariantValues = {};
  for (const name of Object.keys((body ?? {}) as object)) {
    if (VARIANT_FIELD.test(name) || DIMENSION_FIELD.test(name)) values[name] = field(body, name);
  }
  return values;
}

const isBlank = (row: PresetRow) => !row.value.trim() && !row.label.trim() && !row.price.trim();

/** The preset rows as stored or posted, each at its own index (issues name rows by it). */
function rowsOf(values: VariantValues): PresetRow[] {
  const rows: PresetRow[] = [];
  for (let k = 0; [`presetValue_${k}`, `presetLabel_${k}`, `presetPrice_${k}`].some((name) => name in values); k++) {
    rows.push({
      value: values[`presetValue_${k}`] ?? '',
      label: values[`presetLabel_${k}`] ?? '',
      price: values[`presetPrice_${k}`] ?? '',
    });
  }
  return rows;
}

/** The preset rows to show: those stored or typed, then blank ones to add presets. */
export function presetRows(values: VariantValues): PresetRow[] {
  const rows = rowsOf(values);
  let trailing = 0;
  while (trailing < rows.length && isBlank(rows[rows.length - 1 - trailing]!)) trailing++;
  const blank = Math.max(0, BLANK_PRESET_ROWS - trailing);
  return [...rows, ...Array.from({ length: blank }, () => ({ value: '', label: '', price: '' }))];
}

export const FIELD_LABELS: Record<string, string> = {
  variantId: 'Variant id',
  variantTitle: 'Variant title',
  price: 'Price',
  unit: 'Unit',
  unitValue: 'Unit value',
  displayStyle: 'Display style',
  rules: 'Rules',
  min: 'Minimum',
  increment: 'Increment',
  defaultValue: 'Default value',
  max: 'Maximum',
  presets: 'Presets',
};

/** The label of a field, preset and factor fields included (`Preset 2 value`, `Width fixed value`). */
export function labelOf(name: string, values: VariantValues = {}): string {
  const factor = labelOfFactorField(name, values);
  if (factor) return factor;
  const preset = /^preset(Value|Label|Price)_(\d+)$/.exec(name);
  if (preset) return `Preset ${Number(preset[2]) + 1} ${preset[1]!.toLowerCase()}`;
  return FIELD_LABELS[name] ?? name;
}

export interface ParsedVariant {
  settings?: VariantSettings;
  /** Field name → message with the field named (`Minimum must be a number`). */
  issues: Record<string, string>;
  /** For each preset sent to the import, the form row it came from (for the import's issues). */
  presetRowOf: number[];
}

/**
 * A price as typed, in the import's form when it is a number a person wrote (`4,20` → `4.20`);
 * otherwise as typed, for the import's validator to name.
 */
export function typedAmount(text: string): string {
  const typed = readTypedNumber(text);
  return typed.ok ? typed.text : text.trim();
}

/**
 * Reads the form as the API reads a body: numbers must be JSON numbers; a blank maximum is no
 * maximum; a preset row left blank is dropped; a blank label or price is left out.
 */
export function parseVariantForm(values: VariantValues): ParsedVariant {
  const issues: Record<string, string> = {};
  const number = (name: string): number => {
    const typed = readTypedNumber(values[name] ?? '');
    if (typed.ok) return Number(typed.text);
    issues[name] = issueInWords(labelOf(name, values), typed.hint);
    return NaN;
  };
  const unit = (values.unit ?? '').trim();
  const unitValue = number('unitValue');
  const displayStyle = values.displayStyle as 'number' | 'pills' | 'dropdown';
  const presetRowOf: number[] = [];
  let onlineStore: VariantSettings['settings']['onlineStore'];
  if (displayStyle === 'number') {
    const maxText = (values.max ?? '').trim();
    onlineStore = {
      displayStyle,
      rules: {
        min: number('min'),
        increment: number('increment'),
        defaultValue: number('defaultValue'),
        max: maxText === '' ? null : number('max'),
      },
    };
  } else {
    const presets: NonNullable<VariantSettings['settings']['onlineStore']['presets']> = [];
    rowsOf(values).forEach((row, k) => {
      if (isBlank(row)) return;
      presetRowOf.push(k);
      // A label is kept as typed (it is the customer's text); a blank one is no label.
      presets.push({
        value: number(`presetValue_${k}`),
        ...(row.label.trim() ? { label: row.label } : {}),
        ...(row.price.trim() ? { price: typedAmount(row.price) } : {}),
      });
    });
    // The import's validator says what is wrong with the style or an empty list.
    onlineStore = { displayStyle, presets: presets.length ? presets : undefined } as typeof onlineStore;
  }
  // The factors and overage of PRODUCT.md §19, when the form has their fields (area and volume).
  // `dimensions: undefined` (every factor blank) says the form clears them: the key is what tells.
  const dimensions = parseDimensionFields(values, number);
  if (dimensions) onlineStore = { ...onlineStore, dimensions: undefined, overagePercent: undefined, ...dimensions };
  if (Object.keys(issues).length > 0) return { issues, presetRowOf };
  return { settings: { unitMeasurement: { unit, value: unitValue }, settings: { onlineStore } }, issues, presetRowOf };
}

/**
 * A new variant's form: its id, title and price as typed (the import's validator says what is
 * wrong with them), then its measured settings read as the variant form reads them.
 */
export function parseNewVariant(values: VariantValues): ParsedVariant & { variant?: ImportVariant } {
  const parsed = parseVariantForm(values);
  if (!parsed.settings) return parsed;
  const text = (name: string) => (values[name] ?? '').trim();
  return {
    ...parsed,
    variant: {
      id: text('variantId'),
      title: text('variantTitle'),
      price: typedAmount(text('price')),
      ...parsed.settings,
    },
  };
}

const RULE = /^\/settings\/onlineStore\/rules(?:\/(min|increment|defaultValue|max))?$/;
const PRESET = /^\/settings\/onlineStore\/presets(?:\/(\d+)(?:\/(value|label|price))?)?$/;

/** The form field an import issue about the variant belongs to (`` for the summary). */
export function fieldOfIssue(path: string, presetRowOf: number[]): string {
  if (path === '/id') return 'variantId';
  if (path === '/title') return 'variantTitle';
  if (path === '/price') return 'price';
  if (path === '/unitMeasurement/unit') return 'unit';
  if (path === '/unitMeasurement/value') return 'unitValue';
  if (path === '/settings/onlineStore/displayStyle') return 'displayStyle';
  const factorField = fieldOfDimensionIssue(path);
  if (factorField) return factorField;
  const rule = RULE.exec(path);
  if (rule) return rule[1] ?? 'rules';
  const preset = PRESET.exec(path);
  if (preset) {
    if (preset[1] === undefined) return 'presets';
    const row = presetRowOf[Number(preset[1])] ?? 0;
    const part = (preset[2] ?? 'value').replace(/^./, (c) => c.toUpperCase());
    return `preset${part}_${row}`;
  }
  return '';
}

/** The import's issues about one variant, beside its fields; the others for the summary. */
export function variantIssues(
  issues: EditIssue[],
  variantId: string,
  presetRowOf: number[],
  values: VariantValues = {},
): { fields: Record<string, string>; other: string[] } {
  const fields: Record<string, string> = {};
  const other: string[] = [];
  for (const issue of issues) {
    const name = issue.variantId === variantId ? fieldOfIssue(issue.path, presetRowOf) : '';
    if (name) fields[name] ??= issueInWords(labelOf(name, values), issue.message);
    else other.push(otherIssue(issue));
  }
  return { fields, other };
}

/** An issue no field of the form holds, for the top of the form: `Variant 2002, unit must be …`. */
export function otherIssue(issue: EditIssue): string {
  if (!issue.variantId) return issue.path ? issueAtPlace(issue) : ruleInWords(issue.message);
  if (!issue.path) return issueInWords(`Variant ${issue.variantId}`, issue.message);
  return issueInWords(`Variant ${issue.variantId}, ${placeInWords(issue.path).toLowerCase()}`, issue.message);
}

/**
 * What the shared rule check (the import's, the client cart helpers') refuses in the form's
 * settings, each named by its field (`Default value 6 is above the maximum 5`): the preview says
 * it instead of showing a line the rules would not let a customer choose.
 */
export function settingsProblems(
  parsed: ParsedVariant,
  measurementType?: string,
  values: VariantValues = {},
): string[] {
  if (!parsed.settings) return Object.values(parsed.issues);
  const store = parsed.settings.settings.onlineStore;
  // The factors and overage (PRODUCT.md §19) by the import's own check, when the type is known.
  const dimensionIssues = measurementType ? dimensionsSettingsIssues(store, measurementType) : [];
  return [...onlineStoreIssues(store), ...dimensionIssues].map((issue) => {
    const name = fieldOfIssue(`/settings/onlineStore${issue.path}`, parsed.presetRowOf);
    return name ? issueInWords(labelOf(name, values), issue.message) : ruleInWords(issue.message);
  });
}
