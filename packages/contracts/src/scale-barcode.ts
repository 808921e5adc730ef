/**
 * Scale labels (PRODUCT.md §22): the EAN-13 codes an in-store scale prints, carrying the item
 * and its weight or price in GS1's variable-measure prefixes. Plain TypeScript, no dependency:
 * the server and `@tare/client` decode with this one copy. Values stay decimal text, never floats.
 */
import { typeOfUnit } from './units.js';

/** GS1 prefixes reserved for variable-measure items in a restricted circulation (`20`–`29`, `02`). */
export const SCALE_BARCODE_PREFIXES = ['02', '20', '21', '22', '23', '24', '25', '26', '27', '28', '29'] as const;

/** How a shop's scales lay out a label: prefix, item (PLU), optional verifier digit, value, check digit. */
export interface ScaleBarcodeFormat {
  prefix: string;
  itemDigits: number;
  value: 'weight' | 'price';
  valueDigits: number;
  /** Implied decimal places of the value: `01234` with 3 decimals is 1.234. */
  decimals: number;
  /** Weight formats only: the weight unit the value is in. Price formats are in the shop's currency. */
  unit?: string;
  /** Whether a GS1 price/measure verifier digit precedes the value (4- or 5-digit values only). */
  priceCheckDigit?: boolean;
}

/** What a label says, before any catalog look-up. */
export interface ScaleLabel {
  format: ScaleBarcodeFormat;
  /** The item digits as printed (leading zeros kept): a variant's `scaleItem`. */
  item: string;
  /** The value as exact decimal text with the format's decimals (`'1.234'`, `'12.50'`). */
  value: string;
}

export type ScaleBarcodeRefusalReason =
  'not_13_digits' | 'check_digit' | 'verifier_digit' | 'unclaimed_prefix' | 'format_does_not_add_up';

export type ScaleBarcodeDecoding =
  { ok: true; label: ScaleLabel } | { ok: false; reason: ScaleBarcodeRefusalReason; message: string };

/**
 * The GS1 mod-10 check digit of the digits before it: weights 3 and 1 alternating from the
 * right (GS1 General Specifications §7.9.1).
 * @example ean13CheckDigit('400638133393') // 1
 */
export function ean13CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const fromRight = digits.length - 1 - i;
    sum += Number(digits[i]) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

// The weighting factors of GS1 General Specifications §7.9.2, as the product each digit gives.
/** 2-: 2 × digit, units digit minus tens digit (mod 10). */
const TWO_MINUS = [0, 2, 4, 6, 8, 9, 1, 3, 5, 7];
/** 3: units digit of 3 × digit. */
const THREE = [0, 3, 6, 9, 2, 5, 8, 1, 4, 7];
/** 5+: 5 × digit, units digit plus tens digit. */
const FIVE_PLUS = [0, 5, 1, 6, 2, 7, 3, 8, 4, 9];
/** 5-: 5 × digit, units digit minus tens digit (mod 10). */
const FIVE_MINUS = [0, 5, 9, 4, 8, 3, 7, 2, 6, 1];

/**
 * GS1's price/measure verifier digit of a four- or five-digit value field (General Specifications
 * §7.9.3 and §7.9.4). Four digits: weights 2-, 2-, 3, 5-; the units digit of 3 × the sum.
 * Five digits: weights 5+, 2-, 5-, 5+, 2-; the sum subtracted from the next multiple of 10 is the
 * 5- product of the verifier digit.
 * @example priceVerifierDigit('2875') // 9 (§7.9.3's example)
 * @example priceVerifierDigit('14685') // 6 (§7.9.4's example)
 */
export function priceVerifierDigit(value: string): number {
  const weighted = (weights: number[][]) =>
    weights.reduce((sum, products, i) => sum + (products[Number(value[i])] ?? NaN), 0);
  if (!/^[0-9]{4,5}$/.test(value)) throw new RangeError(`a verifier digit needs 4 or 5 digits, not '${value}'`);
  if (value.length === 4) return (weighted([TWO_MINUS, TWO_MINUS, THREE, FIVE_MINUS]) * 3) % 10;
  const product = (10 - (weighted([FIVE_PLUS, TWO_MINUS, FIVE_MINUS, FIVE_PLUS, TWO_MINUS]) % 10)) % 10;
  return FIVE_MINUS.indexOf(product);
}

/**
 * Why a format cannot lay out a 13-digit label: each problem with the field it concerns. The
 * digits must add up: prefix + item + verifier (when present) + value + check digit = 13.
 */
export function scaleFormatProblems(
  format: ScaleBarcodeFormat,
): { field: keyof ScaleBarcodeFormat; message: string }[] {
  const problems: { field: keyof ScaleBarcodeFormat; message: string }[] = [];
  const { prefix, itemDigits, valueDigits, decimals, unit } = format;
  if (!(SCALE_BARCODE_PREFIXES as readonly string[]).includes(prefix)) {
    problems.push({ field: 'prefix', message: `'${prefix}' is not a GS1 variable-measure prefix (20–29 or 02)` });
  }
  if (!Number.isInteger(itemDigits) || itemDigits < 1) {
    problems.push({ field: 'itemDigits', message: 'must be a whole number of at least 1' });
  }
  if (!Number.isInteger(valueDigits) || valueDigits < 1) {
    problems.push({ field: 'valueDigits', message: 'must be a whole number of at least 1' });
  }
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > valueDigits) {
    problems.push({ field: 'decimals', message: `must be a whole number from 0 to valueDigits (${valueDigits})` });
  }
  if (format.priceCheckDigit && valueDigits !== 4 && valueDigits !== 5) {
    problems.push({ field: 'priceCheckDigit', message: 'needs a value of 4 or 5 digits (GS1 weights only those)' });
  }
  if (format.value === 'weight' && (unit === undefined || typeOfUnit(unit) !== 'weight')) {
    problems.push({ field: 'unit', message: `a weight format needs a weight unit, not '${unit ?? ''}'` });
  }
  if (format.value === 'price' && unit !== undefined) {
    problems.push({ field: 'unit', message: "a price format is in the shop's currency and takes no unit" });
  }
  const total = prefix.length + itemDigits + (format.priceCheckDigit ? 1 : 0) + valueDigits + 1;
  if (total !== 13) {
    problems.push({
      field: 'valueDigits',
      message: `prefix ${prefix.length} + item ${itemDigits}${format.priceCheckDigit ? ' + verifier 1' : ''} + value ${valueDigits} + check digit 1 makes ${total} digits, not 13`,
    });
  }
  return problems;
}

/**
 * Decodes a scale label with the shop's formats, or says why it cannot: not 13 digits, a wrong
 * check digit, a prefix no format claims, a format whose digits do not add up, a wrong verifier
 * digit. The value keeps the format's decimals as exact text; nothing is rounded.
 * @example decodeScaleBarcode('2112345012348', [{ prefix: '21', itemDigits: 5, value: 'weight',
 *   valueDigits: 5, decimals: 3, unit: 'kg' }]) // { ok: true, label: { item: '12345', value: '1.234', … } }
 */
export function decodeScaleBarcode(code: string, formats: readonly ScaleBarcodeFormat[]): ScaleBarcodeDecoding {
  if (!/^[0-9]{13}$/.test(code)) {
    return refuse('not_13_digits', `'${code}' is not 13 digits (an EAN-13 scale label)`);
  }
  const check = ean13CheckDigit(code.slice(0, 12));
  if (Number(code[12]) !== check) {
    return refuse('check_digit', `the check digit is ${code[12]}, but the other digits make it ${check}`);
  }
  const format = formats.find((f) => code.startsWith(f.prefix));
  if (!format) return refuse('unclaimed_prefix', `no scale label format of the shop claims prefix ${code.slice(0, 2)}`);
  const problems = scaleFormatProblems(format);
  if (problems.length > 0) {
    const listed = problems.map((p) => `${p.field} ${p.message}`).join('; ');
    return refuse('format_does_not_add_up', `the format of prefix ${format.prefix} cannot be read: ${listed}`);
  }
  let at = format.prefix.length;
  const item = code.slice(at, (at += format.itemDigits));
  const verifier = format.priceCheckDigit ? Number(code[at++]) : undefined;
  const digits = code.slice(at, at + format.valueDigits);
  if (verifier !== undefined && verifier !== priceVerifierDigit(digits)) {
    const expected = priceVerifierDigit(digits);
    return refuse(
      'verifier_digit',
      `the ${format.value} verifier digit is ${verifier}, but ${digits} makes it ${expected}`,
    );
  }
  return { ok: true, label: { format, item, value: withDecimals(digits, format.decimals) } };
}

/** `'01234'` with 3 decimals is `'1.234'`; with 0, `'1234'`. Leading zeros of the whole part go. */
function withDecimals(digits: string, decimals: number): string {
  const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=.)/, '') || '0';
  return decimals === 0 ? whole : `${whole}.${digits.slice(digits.length - decimals)}`;
}

const refuse = (reason: ScaleBarcodeRefusalReason, message: string): ScaleBarcodeDecoding => ({
  ok: false,
  reason,
  message,
});
