import {
  type ScaleBarcodeFormat,
  UNIT_PRICED_TYPES,
  type UnitPricedType,
  type UnitPricingSettings,
  DEFAULT_UNIT_PRICE_REFERENCES,
} from '@tare/contracts';
import { unitsOf } from '../../domain/units.js';
import { field } from '../forms.js';

/**
 * The admin settings form's unit pricing (PRODUCT.md §21) and scale label formats (§22): what
 * the form shows and sends, and how it becomes the import file's `settings.unitPricing` and
 * `settings.scaleBarcodes`, so the import's own checks (unit-pricing.ts,
 * scale-barcode-checks.ts) judge a save exactly as they judge a file.
 */

/** One row of the formats table as typed: every field is text until the import reads it. */
export interface ScaleRow {
  prefix: string;
  itemDigits: string;
  value: string;
  valueDigits: string;
  decimals: string;
  unit: string;
  priceCheckDigit: boolean;
  /** An existing format the merchant ticked "Remove" on. */
  remove: boolean;
}

export interface UnitAndScaleValues {
  unitPricingEnabled: boolean;
  /** Each type's reference as typed; both blank means the default (1 kg, 1 L, 1 m, 1 m²). */
  references: Record<UnitPricedType, { value: string; unit: string }>;
  /** The stored formats, then one blank row to add a format. */
  scaleRows: ScaleRow[];
}

/** At most this many rows are read from a post (GS1 has 11 variable-measure prefixes, plus the blank row). */
const MAX_ROWS = 12;
const SCALE_FIELDS = ['prefix', 'itemDigits', 'value', 'valueDigits', 'decimals', 'unit', 'priceCheckDigit'] as const;
const SCALE_FIELD_WORDS: Record<(typeof SCALE_FIELDS)[number], string> = {
  prefix: 'prefix',
  itemDigits: 'item digits',
  value: 'value',
  valueDigits: 'value digits',
  decimals: 'decimals',
  unit: 'unit',
  priceCheckDigit: 'verifier digit',
};
const TYPE_WORDS: Record<UnitPricedType, string> = {
  weight: 'Weight',
  volume: 'Volume',
  length: 'Length',
  area: 'Area',
};
const INTEGER = /^\d+$/;
const NUMBER = /^\d+(\.\d+)?$/;

export const blankScaleRow = (): ScaleRow => ({
  prefix: '',
  itemDigits: '',
  value: 'weight',
  valueDigits: '',
  decimals: '',
  unit: '',
  priceCheckDigit: false,
  remove: false,
});

/** The shop's stored settings as the form shows them. */
export function unitAndScaleValuesOf(
  unitPricing: UnitPricingSettings | undefined,
  formats: readonly ScaleBarcodeFormat[],
): UnitAndScaleValues {
  const references = Object.fromEntries(
    UNIT_PRICED_TYPES.map((type) => {
      const reference = unitPricing?.reference?.[type];
      return [type, reference ? { value: String(reference.value), unit: reference.unit } : { value: '', unit: '' }];
    }),
  ) as UnitAndScaleValues['references'];
  const rows = formats.map((format) => ({
    prefix: format.prefix,
    itemDigits: String(format.itemDigits),
    value: format.value,
    valueDigits: String(format.valueDigits),
    decimals: String(format.decimals),
    unit: format.unit ?? '',
    priceCheckDigit: format.priceCheckDigit === true,
    remove: false,
  }));
  return { unitPricingEnabled: unitPricing?.enabled === true, references, scaleRows: [...rows, blankScaleRow()] };
}

/** What the form sent; an unchecked box is sent by no browser, so it is false here. */
export function postedUnitAndScaleValues(body: unknown): UnitAndScaleValues {
  const references = Object.fromEntries(
    UNIT_PRICED_TYPES.map((type) => [
      type,
      { value: field(body, `reference_${type}_value`).trim(), unit: field(body, `reference_${type}_unit`) },
    ]),
  ) as UnitAndScaleValues['references'];
  const scaleRows: ScaleRow[] = [];
  for (let i = 0; i < MAX_ROWS && field(body, `scale_${i}_value`) !== ''; i++) {
    const text = (name: string) => field(body, `scale_${i}_${name}`).trim();
    scaleRows.push({
      prefix: text('prefix'),
      itemDigits: text('itemDigits'),
      value: text('value'),
      valueDigits: text('valueDigits'),
      decimals: text('decimals'),
      unit: text('unit'),
      priceCheckDigit: text('priceCheckDigit') === 'on',
      remove: text('remove') === 'on',
    });
  }
  return { unitPricingEnabled: field(body, 'unitPricingEnabled') === 'on', references, scaleRows };
}

/** A row left blank (the one for adding) is no format. */
const isBlank = (row: ScaleRow) =>
  row.prefix === '' && row.itemDigits === '' && row.valueDigits === '' && row.decimals === '' && row.unit === '';

/** A whole number goes in as JSON would carry it; anything else as typed, which the import names. */
const integer = (text: string): number | string => (INTEGER.test(text) ? Number(text) : text);

/**
 * The import file's `settings.unitPricing` and `settings.scaleBarcodes` for what the form sent,
 * and which form row each format of the file came from (a removed or blank row is left out).
 * Nothing is stated that the shop never had and the form leaves empty, so a save of the other
 * settings writes neither.
 */
export function unitAndScaleSettings(
  values: UnitAndScaleValues,
  stored: { unitPricing: UnitPricingSettings | undefined; formats: readonly ScaleBarcodeFormat[] },
): { settings: Record<string, unknown>; rowOfFormat: number[] } {
  const reference: Record<string, { value: number | string; unit: string }> = {};
  for (const type of UNIT_PRICED_TYPES) {
    const { value, unit } = values.references[type];
    if (value === '' && unit === '') continue;
    // A unit without a number is per 1 of it; a number without a unit is in the default's unit.
    reference[type] = {
      value: value === '' ? 1 : NUMBER.test(value) ? Number(value) : value,
      unit: unit === '' ? DEFAULT_UNIT_PRICE_REFERENCES[type].unit : unit,
    };
  }
  const rowOfFormat: number[] = [];
  const formats = values.scaleRows.flatMap((row, i) => {
    if (row.remove || isBlank(row)) return [];
    rowOfFormat.push(i);
    return [
      {
        prefix: row.prefix,
        itemDigits: integer(row.itemDigits),
        value: row.value,
        valueDigits: integer(row.valueDigits),
        decimals: integer(row.decimals),
        ...(row.unit === '' ? {} : { unit: row.unit }),
        ...(row.priceCheckDigit ? { priceCheckDigit: true } : {}),
      },
    ];
  });
  const settings: Record<string, unknown> = {};
  if (stored.unitPricing !== undefined || values.unitPricingEnabled || Object.keys(reference).length > 0) {
    settings['unitPricing'] = { enabled: values.unitPricingEnabled, reference };
  }
  if (stored.formats.length > 0 || formats.length > 0) settings['scaleBarcodes'] = formats;
  return { settings, rowOfFormat };
}

/**
 * The form field an import issue of these settings belongs to (`/shops/0/settings/scaleBarcodes/1/prefix`
 * → `scale_2_prefix` when the file's second format is the form's third row), or undefined.
 */
export function unitAndScaleField(path: string, rowOfFormat: number[]): string | undefined {
  const reference = /^\/shops\/0\/settings\/unitPricing\/reference\/(\w+)(?:\/(value|unit))?$/.exec(path);
  if (reference) return `reference_${reference[1]}_${reference[2] ?? 'value'}`;
  if (path.startsWith('/shops/0/settings/unitPricing')) return 'unitPricingEnabled';
  const format = /^\/shops\/0\/settings\/scaleBarcodes\/(\d+)(?:\/(\w+))?/.exec(path);
  if (format) return `scale_${rowOfFormat[Number(format[1])] ?? 0}_${format[2] ?? 'prefix'}`;
  if (path.startsWith('/shops/0/settings/scaleBarcodes')) return 'scaleBarcodes';
  return undefined;
}

/** How an error message names each of these fields ("Format 2 item digits", "Weight reference"). */
export function unitAndScaleLabels(rows: number): Record<string, string> {
  const labels: Record<string, string> = {
    unitPricingEnabled: 'Unit prices',
    scaleBarcodes: 'Scale label formats',
  };
  for (const type of UNIT_PRICED_TYPES) {
    labels[`reference_${type}_value`] = `${TYPE_WORDS[type]} reference`;
    labels[`reference_${type}_unit`] = `${TYPE_WORDS[type]} reference unit`;
  }
  for (let i = 0; i < rows; i++) {
    for (const name of SCALE_FIELDS) labels[`scale_${i}_${name}`] = `Format ${i + 1} ${SCALE_FIELD_WORDS[name]}`;
  }
  return labels;
}

/** Units a reference of `type` may be stated in (the form's select). */
export const referenceUnits = (type: UnitPricedType) => unitsOf(type);
