import {
  MEASUREMENT_TYPES,
  UNIT_CATALOGUE,
  isMeasurementType,
  typeOfUnit,
  unitsOf,
  type MeasurementType,
  type UnitDefinition,
  type UnitGroup,
} from '@tare/contracts';

import { Dec } from './decimal.js';

/** The catalogue itself lives in `@tare/contracts` (shared with the client SDK); re-exported here. */
export { MEASUREMENT_TYPES, UNIT_CATALOGUE, isMeasurementType, typeOfUnit, unitsOf };
export type { MeasurementType, UnitDefinition, UnitGroup };

const UNIT_INDEX = new Map<string, { type: MeasurementType; factor: Dec }>(
  MEASUREMENT_TYPES.flatMap((type) =>
    UNIT_CATALOGUE[type].units.map((d) => [d.id, { type, factor: new Dec(d.factor) }] as const),
  ),
);

/** Raised for an unknown unit or a pair of units of different types. */
export class UnitConversionError extends Error {
  override readonly name = 'UnitConversionError';
  constructor(
    readonly from: string,
    readonly to: string,
    /** Units accepted in place of `from`: those of `to`'s type (or `from`'s if `to` is unknown). */
    readonly validUnits: readonly string[],
  ) {
    super(`cannot convert from '${from}' to '${to}'`);
  }
}

export function isUnitOfType(unit: string, type: MeasurementType): boolean {
  return typeOfUnit(unit) === type;
}

/**
 * Exact size of one `unit` in its type's base unit.
 * @throws UnitConversionError for an unknown unit.
 * @example factorOf('lb').toString() // '0.45359237' (kg)
 */
export function factorOf(unit: string): Dec {
  const entry = UNIT_INDEX.get(unit);
  if (!entry) throw new UnitConversionError(unit, unit, []);
  return entry.factor;
}

/**
 * Converts `value` in unit `from` to unit `to` as value × factor(from) ÷ factor(to)
 * at 60 significant digits. Every catalogue factor is a terminating decimal, so
 * a terminating result is exact; only a repeating quotient is rounded (half-even,
 * 60 digits).
 *
 * @throws UnitConversionError for an unknown unit or units of different types.
 * @example convert(new Dec(16), 'oz', 'lb').toString() // '1'
 */
export function convert(value: Dec, from: string, to: string): Dec {
  const src = UNIT_INDEX.get(from);
  const dst = UNIT_INDEX.get(to);
  if (!src || !dst || src.type !== dst.type) {
    const accepting = dst?.type ?? src?.type;
    throw new UnitConversionError(from, to, accepting ? unitsOf(accepting) : []);
  }
  if (from === to) return value;
  return value.times(src.factor).dividedBy(dst.factor);
}

/**
 * `convert`, then rounded half-even to 9 decimal places (the stored scale).
 * Only a conversion whose exact result has more than 9 decimals is changed; a value already
 * in `to` is returned as it is (PRODUCT.md §6: nothing but a converted value is rounded).
 * A quantity sent to Tare goes through `exactQuantity` first, which refuses one with more than 9
 * decimal places in its own unit and a non-zero one this would round to 0 (decision 34).
 *
 * @example convertForStorage(new Dec(1), 'in3', 'ft3').toString() // '0.000578704' (exact 1/1728 repeats)
 */
export function convertForStorage(value: Dec, from: string, to: string): Dec {
  const converted = convert(value, from, to);
  return from === to ? converted : converted.toDecimalPlaces(9, Dec.ROUND_HALF_EVEN);
}
