/**
 * Whether Tare can book a measured line exactly (PRODUCT.md §6): the server skips a line it cannot
 * (domain/bookable-line.ts), and the checkout function leaves such a line at the variant's own
 * price, so that nothing is charged for a measure Tare would have to round. Exact, over BigInt.
 */
import { plainNumber, toScaled } from './exact-decimal.js';

/** Decimal places of its unit to which Tare keeps a measure. */
export const MEASURE_DECIMALS = 9;

/**
 * The most whole units one line may take from a level: Shopify keeps a level within
 * ±1,000,000,000 (InventorySetQuantitiesUserErrorCode INVALID_QUANTITY_TOO_HIGH / TOO_LOW).
 */
export const MAX_LINE_UNITS = 1_000_000_000;

/**
 * Why `quantity` × `measure` (in the variant's own unit) is more whole units of the variant
 * (`unitValue` each) than a platform level holds, or undefined when it is not.
 * @param stated the measure as the line states it, for the message (`'2 kg'`).
 * @example lineUnitsIssue('2000000000', 1, '1', '2000000000 kg') // '1 × 2000000000 kg is more than 1000000000 whole units …'
 */
export function lineUnitsIssue(
  measure: number | string,
  quantity: number,
  unitValue: number | string,
  stated: string,
): string | undefined {
  const m = toScaled(measure);
  const u = toScaled(unitValue);
  // |quantity × m ÷ u| > MAX, as integers: |q × m.int| × 10^u.scale > MAX × |u.int| × 10^m.scale.
  const abs = (n: bigint) => (n < 0n ? -n : n);
  const units = abs(BigInt(quantity) * m.int) * 10n ** BigInt(u.scale);
  const bound = BigInt(MAX_LINE_UNITS) * abs(u.int) * 10n ** BigInt(m.scale);
  if (units <= bound) return undefined;
  return `${quantity} × ${stated} is more than ${MAX_LINE_UNITS} whole units of the variant, past what a platform level holds`;
}

/**
 * Why a line of `quantity` × `measure`, stated in the variant's own unit, cannot be booked
 * exactly, or undefined when it can: more than 9 decimal places, not above 0, or more whole
 * units than a level holds. (A measure in another unit is converted first: the server's
 * `lineMeasure`.)
 * @example bookableMeasureIssue(1.25, 2, 1, 'kg') // undefined
 * @example bookableMeasureIssue(0.1234567891, 1, 1, 'kg') // '0.1234567891 kg has more than 9 decimal places; …'
 */
export function bookableMeasureIssue(
  measure: number,
  quantity: number,
  unitValue: number | string,
  unit: string,
): string | undefined {
  if (!Number.isFinite(measure) || measure <= 0) return `${String(measure)} ${unit} is not a measure greater than 0`;
  const stated = `${plainNumber(measure)} ${unit}`;
  if (!Number.isSafeInteger(quantity) || quantity < 1) return `${quantity} is not a whole quantity of at least 1`;
  if (toScaled(measure).scale > MEASURE_DECIMALS) {
    return `${stated} has more than ${MEASURE_DECIMALS} decimal places; Tare keeps ${MEASURE_DECIMALS} decimal places of a unit`;
  }
  return lineUnitsIssue(measure, quantity, unitValue, stated);
}
