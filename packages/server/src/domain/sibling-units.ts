import { Dec } from './decimal.js';
import { factorOf } from './units.js';

/**
 * The whole units a variant linked to a stock item shows on the platform (PRODUCT.md §20):
 * `floor(total ÷ unitMeasurement)`, both compared exactly in the type's base unit, whatever the
 * item's and the variant's units (1 kg item, variant per 4 oz). Converting the total into the
 * variant's unit first would round a repeating quotient at 9 decimal places, and a rounding up
 * across a whole unit would show one unit more than the item holds; here the quotient is
 * corrected against the exact product, so it never does.
 *
 * @example wholeUnitsOf(new Dec('0.75'), 'kg', 'g', new Dec(250)).toString() // '3'
 */
export function wholeUnitsOf(total: Dec, totalUnit: string, unit: string, unitValue: Dec): Dec {
  const held = total.times(factorOf(totalUnit));
  const one = unitValue.times(factorOf(unit));
  let units = held.div(one).floor();
  // Both products are exact (every factor terminates); the 60-digit quotient may be off by one.
  while (units.times(one).gt(held)) units = units.minus(1);
  while (units.plus(1).times(one).lte(held)) units = units.plus(1);
  return units;
}
