import { Dec, toPlainString } from './decimal.js';
import { convert } from './units.js';

/** Decimal places of its unit to which Tare keeps a quantity (PRODUCT.md §6). */
export const QUANTITY_SCALE = 9;

export type ExactQuantity = { ok: true; value: Dec } | { ok: false; message: string };

/**
 * A quantity sent to Tare (in a request or an import file) in unit `to`, exactly, or why it
 * cannot be kept as sent. Tare keeps 9 decimal places of a unit; rather than round a value and
 * book something other than what was asked, it refuses it: a value with more than 9 decimal
 * places in its own unit, or one whose exact conversion into `to` needs more than 9.
 *
 * @throws UnitConversionError when the units are not of one type (callers check that first).
 * @example exactQuantity(new Dec('3.3'), 'lb', 'kg') // { ok: true, value: 1.496854821 }
 * @example exactQuantity(new Dec('1'), 'oz', 'kg').ok // false: 1 oz is 0.028349523125 kg
 * @example exactQuantity(new Dec('1e-10'), 'kg', 'kg').ok // false
 */
export function exactQuantity(value: Dec, from: string, to: string): ExactQuantity {
  if (value.decimalPlaces() > QUANTITY_SCALE) {
    return {
      ok: false,
      message: `has more than ${QUANTITY_SCALE} decimal places; Tare keeps ${QUANTITY_SCALE} decimal places of a unit`,
    };
  }
  return exactConversion(value, from, to);
}

/**
 * `value` in unit `to` when the conversion needs no rounding (at most 9 decimal places in `to`),
 * else why not. A value already in `to` is returned as it is: it is not converted, so nothing is
 * lost (`exactQuantity` is the check for values sent to Tare).
 *
 * @throws UnitConversionError when the units are not of one type.
 * @example exactConversion(new Dec('1.25'), 'kg', 'g') // { ok: true, value: 1250 }
 */
export function exactConversion(value: Dec, from: string, to: string): ExactQuantity {
  if (from === to) return { ok: true, value };
  const converted = convert(value, from, to);
  if (converted.decimalPlaces() > QUANTITY_SCALE) {
    return {
      ok: false,
      message:
        `${toPlainString(value)} ${from} is ${preview(converted)} ${to} in the variant's unit, which needs more ` +
        `than ${QUANTITY_SCALE} decimal places; send it in ${to} with at most ${QUANTITY_SCALE} decimal places`,
    };
  }
  return { ok: true, value: converted };
}

/** The exact value, or its first 20 decimals and an ellipsis when it is longer (or repeats). */
function preview(value: Dec): string {
  return value.decimalPlaces() <= 20 ? toPlainString(value) : `${value.toFixed(20, Dec.ROUND_DOWN)}…`;
}
