import { lineUnitsIssue } from '@tare/contracts';
import type { Dec } from './decimal.js';
import { exactQuantity } from './quantity.js';

export type LineMeasure = { ok: true; perUnit: Dec } | { ok: false; detail: string };

/**
 * What one unit of an order line takes from its variant's stock, in the variant's unit, or why
 * Tare cannot book it. An order's lines are the customer's text: a measure Tare would have to
 * round (more than 9 decimal places of the unit, or a value that rounds to 0), or a line past
 * what a level holds (contracts' `lineUnitsIssue`, the checkout function's bound too), is
 * refused here, so that it is skipped with its reason and never fails the order's booking (and
 * with it every later stock notice of the shop).
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
  const tooMany = lineUnitsIssue(kept.value.toString(), quantity, variant.unitValue, stated);
  return tooMany ? { ok: false, detail: tooMany } : { ok: true, perUnit: kept.value };
}
