import { Decimal } from 'decimal.js';

/**
 * Decimal constructor for all domain arithmetic.
 *
 * Precision is 60 significant digits because the library default (20) silently
 * rounds large NUMERIC values; half-even rounding avoids a systematic upward bias
 * when results do need rounding. The exponent thresholds keep `toString()` in
 * plain notation for every value we store.
 *
 * @example new Dec('0.1').plus('0.2').toString() // '0.3'
 */
export const Dec = Decimal.clone({
  precision: 60,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -60,
  toExpPos: 60,
});
export type Dec = InstanceType<typeof Dec>;

/**
 * Converts a JSON number to a decimal through its shortest round-trip text
 * (`String(n)`), so the decimal equals what the sender wrote rather than the
 * binary double's full expansion.
 *
 * @throws RangeError when `n` is NaN or ±Infinity.
 * @example decimalFromJson(0.1).toString() // '0.1', not '0.1000000000000000055…'
 */
export function decimalFromJson(n: number): Dec {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  return new Dec(String(n));
}

/**
 * Plain decimal text: never an exponent, no trailing fractional zeros, and
 * negative zero prints as "0".
 *
 * @example toPlainString(new Dec('1e-9')) // '0.000000001'
 */
export function toPlainString(d: Dec): string {
  // toFixed() without arguments never uses exponent notation, unlike toString().
  return d.isZero() ? '0' : d.toFixed();
}

/**
 * Converts to a JS number for the JSON edge only; it may lose precision
 * beyond ~15–17 significant digits, so never compute with the result.
 *
 * @example toJsonNumber(new Dec('12.75')) // 12.75
 */
export function toJsonNumber(d: Dec): number {
  return d.toNumber();
}
