import { Dec } from './decimal.js';
import { exactQuantity } from './quantity.js';

/**
 * The most whole units one order line may take from a level: Shopify keeps a level within
 * ±1,000,000,000 (InventorySetQuantitiesUserErrorCode INVALID_QUANTITY_TOO_HIGH / TOO_LOW), so
 * a line past it is not stock any platform could have sold.
 */
export const MAX_LINE_UNITS = new Dec(1_000_000_000);

export type LineMeasure = { ok: true; perUnit: Dec } | { ok: false; detail: string };

/**
 * What one unit of an order line takes from its variant's stock, in the variant's unit, or why
 * Tare cannot book it. An order's lines are the customer's text: a measure Tare would have to
 * round (more than 9 decimal places of the unit, or a value that rounds to 0), or a line past
 * what a level holds, is refused here, so that it is skipped with its reason and never fails the
 * order's booking (and with it every later stock notice of the shop).
 *
 * @example lineMeasure({ value: new Dec('1.25'), unit: 'kg' }, 2, { unit: 'kg', unitValue: '1' }) // { ok: true, perUnit: 1.25 }
 * @example lineMeasure({ value: new Dec('0.1234567891'), unit: 'kg' }, 1, { unit: 'kg', unitValue: '1' }).ok // false
 */
export function lineMeasure(
  measurement: { value: Dec; unit: string },
  quantity: number,
  variant: { unit: string; unitValue: string },
): LineMeasure {
  // Plain up to 60 digits (Dec's setting), an exponent past that: a detail stays readable.
  const stated = `${measurement.value.toString()} ${measurement.unit}`;
  const kept = exactQuantity(measurement.value, measurement.unit, variant.unit);
  if (!kept.ok) return { ok: false, detail: `${stated} ${kept.message}` };
  const units = kept.value.times(quantity).div(variant.unitValue);
  if (units.abs().gt(MAX_LINE_UNITS)) {
    return {
      ok: false,
      detail: `${quantity} × ${stated} is more than ${MAX_LINE_UNITS.toFixed()} whole units of the variant, past what a platform level holds`,
    };
  }
  return { ok: true, perUnit: kept.value };
}
