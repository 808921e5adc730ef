import { Dec } from './decimal.js';
import { splitForPlatform } from './platform-split.js';

export type InventoryOperation = 'adjustment' | 'set';

export interface PlannedLevel {
  before: Dec;
  after: Dec;
  delta: Dec;
  /** What the whole-unit platform shows: floor(after / unitValue). */
  platformInteger: Dec;
}

/**
 * The new state of one level. `value` is already in the variant's unit. An adjustment adds it
 * (any sign, zero allowed, the total may go below zero: platforms allow overselling); a set
 * replaces the total (callers reject negative levels before). Nothing is rounded here.
 *
 * @example planLevel('adjustment', new Dec('12.75'), new Dec('-0.75'), new Dec(1))
 *   // { before: 12.75, after: 12, delta: -0.75, platformInteger: 12 }
 */
export function planLevel(operation: InventoryOperation, before: Dec, value: Dec, unitValue: Dec): PlannedLevel {
  const after = operation === 'adjustment' ? before.plus(value) : value;
  return { before, after, delta: after.minus(before), platformInteger: splitForPlatform(after, unitValue).integer };
}
