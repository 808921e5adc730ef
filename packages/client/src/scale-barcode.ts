/**
 * Scale labels (PRODUCT.md §22) in the client: the service's own decoder, bundled from
 * `@tare/contracts`, behind declarations of the package's own (its published types import nothing).
 * test/types.test-d.ts proves the types equal the shared ones.
 */
import {
  decodeScaleBarcode as sharedDecode,
  ean13CheckDigit as sharedCheckDigit,
  priceVerifierDigit as sharedVerifierDigit,
  scaleFormatProblems as sharedFormatProblems,
} from '@tare/contracts';

/** How a shop's scales lay out a label: prefix, item (PLU), optional verifier digit, value, check digit. */
export interface ScaleBarcodeFormat {
  prefix: string;
  itemDigits: number;
  value: 'weight' | 'price';
  valueDigits: number;
  /** Implied decimal places of the value: `01234` with 3 decimals is 1.234. */
  decimals: number;
  /** Weight formats only: the weight unit of the value. */
  unit?: string;
  /** Whether GS1's price/measure verifier digit precedes the value (4- or 5-digit values only). */
  priceCheckDigit?: boolean;
}

/** What a label says before any catalog look-up: its item digits and exact value text. */
export interface ScaleLabel {
  format: ScaleBarcodeFormat;
  item: string;
  value: string;
}

export type ScaleBarcodeRefusalReason =
  'not_13_digits' | 'check_digit' | 'verifier_digit' | 'unclaimed_prefix' | 'format_does_not_add_up';

export type ScaleBarcodeDecoding =
  { ok: true; label: ScaleLabel } | { ok: false; reason: ScaleBarcodeRefusalReason; message: string };

/**
 * Decodes a scale label with the shop's formats, or says why not, exactly as
 * `GET /scale-barcodes/{code}` does before it looks the item up.
 * @example decodeScaleBarcode('2110001012341', [{ prefix: '21', itemDigits: 5, value: 'weight',
 *   valueDigits: 5, decimals: 3, unit: 'kg' }]) // { ok: true, label: { item: '10001', value: '1.234', … } }
 */
export function decodeScaleBarcode(code: string, formats: readonly ScaleBarcodeFormat[]): ScaleBarcodeDecoding {
  return sharedDecode(code, formats);
}

/** The GS1 mod-10 check digit of the digits before it. @example ean13CheckDigit('400638133393') // 1 */
export function ean13CheckDigit(digits: string): number {
  return sharedCheckDigit(digits);
}

/** GS1's price/measure verifier digit of a 4- or 5-digit value. @example priceVerifierDigit('2875') // 9 */
export function priceVerifierDigit(value: string): number {
  return sharedVerifierDigit(value);
}

/** Why a format cannot lay out a 13-digit label (empty when it can), each with its field. */
export function scaleFormatProblems(
  format: ScaleBarcodeFormat,
): { field: keyof ScaleBarcodeFormat; message: string }[] {
  return sharedFormatProblems(format);
}
