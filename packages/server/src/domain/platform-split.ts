import type { Dec } from './decimal.js';

/**
 * Splits an exact inventory total (in the variant's unit) into what the whole-unit platform can
 * show and what only Tare keeps: `integer = floor(total / unitValue)` and
 * `fraction = total − integer × unitValue`, always in `[0, unitValue)` — also below zero.
 *
 * @example splitForPlatform(new Dec('1250'), new Dec('100')) // { integer: 12, fraction: 50 }
 */
export function splitForPlatform(total: Dec, unitValue: Dec): { integer: Dec; fraction: Dec } {
  if (!unitValue.gt(0)) throw new RangeError('unitValue must be greater than zero');
  const integer = total.div(unitValue).floor();
  return { integer, fraction: total.minus(integer.times(unitValue)) };
}
