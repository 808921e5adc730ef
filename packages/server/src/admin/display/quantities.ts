import { factorOf } from '../../domain/units.js';
import { Dec, toPlainString } from '../../domain/decimal.js';

/** A quantity as a person reads it, and the exact value it stands for. */
export interface ShownQuantity {
  /** Rounded for reading, with thousands separators: `7.03 kg`, `+1,250.5 g`. */
  text: string;
  /** Every digit Tare keeps: `7.030681735 kg`. */
  exact: string;
  /** Whether `text` leaves digits out (then pages offer `exact` on hover or in a detail). */
  rounded: boolean;
}

/**
 * Decimal places a person needs in `unit`: a gram or a millilitre is read to a tenth, a kilogram
 * or a litre to a hundredth (10 g), a tonne or a kilometre to a thousandth (1 kg); the exact
 * value stays one hover away. An unknown unit is read as a base unit.
 */
export function placesFor(unit: string): number {
  let factor: Dec;
  try {
    factor = factorOf(unit);
  } catch {
    return 2;
  }
  if (factor.lte('0.01')) return 1;
  if (factor.gte(1000)) return 3;
  return 2;
}

// Intl formats a decimal string exactly (no float on the way), as formatMoney does.
const grouped = (sign: 'auto' | 'exceptZero') =>
  new Intl.NumberFormat('en', { maximumFractionDigits: 20, signDisplay: sign, useGrouping: true }) as unknown as {
    format(value: string): string;
  };
const PLAIN = grouped('auto');
const SIGNED = grouped('exceptZero');

/**
 * `value` in `unit` rounded for reading (half-even, as Tare rounds): `placesFor(unit)` places,
 * or two significant digits for a value that would otherwise read 0 (`0.0004 kg`).
 * `signed` puts `+` before a positive change.
 */
export function shownQuantity(value: number | string, unit: string, signed = false): ShownQuantity {
  const exact = new Dec(String(value));
  let shown = exact.toDecimalPlaces(placesFor(unit));
  if (shown.isZero() && !exact.isZero()) shown = exact.toSignificantDigits(2);
  const format = signed ? SIGNED : PLAIN;
  return {
    text: `${format.format(toPlainString(shown))} ${unit}`,
    exact: `${format.format(toPlainString(exact))} ${unit}`,
    rounded: !shown.eq(exact),
  };
}
