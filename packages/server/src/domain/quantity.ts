import { MEASURE_DECIMALS } from '@tare/contracts';
import { Dec, toPlainString } from './decimal.js';
import { convert, convertForStorage } from './units.js';

/**
 * Decimal places of its unit to which Tare keeps a quantity (PRODUCT.md §6): the contracts' rule,
 * which the checkout function and the picker apply to a line before it reaches Tare.
 */
export const QUANTITY_SCALE = MEASURE_DECIMALS;

export type KeptQuantity = { ok: true; value: Dec } | { ok: false; message: string };

/**
 * A quantity sent to Tare (in a request or an import file) as Tare keeps it in unit `to`, or why
 * it is refused. PRODUCT.md §6: a converted value is rounded half-even to 9 decimal places of `to`
 * and nothing else is rounded. So that Tare never accepts a value and books another (decision 34),
 * it refuses what §6 would otherwise have to round away: a value with more than 9 decimal places
 * in its own unit, and a non-zero value whose conversion into `to` rounds to 0.
 *
 * @throws UnitConversionError when the units are not of one type (callers check that first).
 * @example exactQuantity(new Dec('3.3'), 'lb', 'kg') // { ok: true, value: 1.496854821 } (exact)
 * @example exactQuantity(new Dec('1'), 'oz', 'kg') // { ok: true, value: 0.028349523 } (0.028349523125)
 * @example exactQuantity(new Dec('1e-10'), 'kg', 'kg').ok // false: 10 decimal places of kg
 * @example exactQuantity(new Dec('0.000001'), 'mg', 't').ok // false: 1e-15 t rounds to 0
 */
export function exactQuantity(value: Dec, from: string, to: string): KeptQuantity {
  if (value.decimalPlaces() > QUANTITY_SCALE) {
    return {
      ok: false,
      message: `has more than ${QUANTITY_SCALE} decimal places; Tare keeps ${QUANTITY_SCALE} decimal places of a unit`,
    };
  }
  return keptConversion(value, from, to);
}

/**
 * `value` in unit `to` as Tare keeps it (`convertForStorage`: converted and rounded half-even to
 * 9 decimal places; a value already in `to` is returned as it is), or why not: a non-zero value
 * whose conversion rounds to 0 would book nothing, so it is refused.
 *
 * @throws UnitConversionError when the units are not of one type.
 * @example keptConversion(new Dec('1.25'), 'kg', 'g') // { ok: true, value: 1250 }
 * @example keptConversion(new Dec('4'), 'oz', 'kg') // { ok: true, value: 0.113398092 } (0.1133980925, half-even)
 */
export function keptConversion(value: Dec, from: string, to: string): KeptQuantity {
  const kept = convertForStorage(value, from, to);
  if (kept.isZero() && !value.isZero()) {
    return {
      ok: false,
      message:
        `${toPlainString(value)} ${from} is ${preview(convert(value, from, to))} ${to}, below what Tare keeps in ` +
        `the variant's unit (${QUANTITY_SCALE} decimal places of ${to}): it would be booked as 0`,
    };
  }
  return { ok: true, value: kept };
}

/** The exact value, or its first 20 significant digits and an ellipsis when it is longer (or repeats). */
function preview(value: Dec): string {
  return value.precision() <= 20 ? toPlainString(value) : `${value.toSignificantDigits(20, Dec.ROUND_DOWN).toFixed()}…`;
}
