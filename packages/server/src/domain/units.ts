import { Dec } from './decimal.js';

export const MEASUREMENT_TYPES = ['weight', 'length', 'area', 'volume', 'time'] as const;
export type MeasurementType = (typeof MEASUREMENT_TYPES)[number];

export interface UnitDefinition {
  readonly id: string;
  /** Exact size of one of this unit in the type's base unit, as decimal text. */
  readonly factor: string;
}

export interface UnitGroup {
  readonly base: string;
  readonly units: readonly UnitDefinition[];
}

const u = (id: string, factor: string): UnitDefinition => ({ id, factor });

/**
 * Unit catalogue from the product doc. Factors are strings because most of
 * them (e.g. 0.1, 0.0254) have no exact binary floating-point form.
 */
export const UNIT_CATALOGUE: Readonly<Record<MeasurementType, UnitGroup>> = {
  weight: {
    base: 'kg',
    units: [
      u('mg', '0.000001'),
      u('g', '0.001'),
      u('kg', '1'),
      u('t', '1000'),
      u('oz', '0.028349523125'),
      u('lb', '0.45359237'),
      u('st', '6.35029318'),
    ],
  },
  length: {
    base: 'm',
    units: [
      u('mm', '0.001'),
      u('cm', '0.01'),
      u('m', '1'),
      u('km', '1000'),
      u('in', '0.0254'),
      u('ft', '0.3048'),
      u('yd', '0.9144'),
      u('mi', '1609.344'),
    ],
  },
  area: {
    base: 'm2',
    units: [
      u('mm2', '0.000001'),
      u('cm2', '0.0001'),
      u('m2', '1'),
      u('ha', '10000'),
      u('km2', '1000000'),
      u('in2', '0.00064516'),
      u('ft2', '0.09290304'),
      u('yd2', '0.83612736'),
      u('ac', '4046.8564224'),
    ],
  },
  volume: {
    base: 'L',
    units: [
      u('ml', '0.001'),
      u('cl', '0.01'),
      u('dl', '0.1'),
      u('L', '1'),
      u('m3', '1000'),
      u('cm3', '0.001'),
      u('in3', '0.016387064'),
      u('ft3', '28.316846592'),
      u('floz', '0.0295735295625'),
      u('cup', '0.2365882365'),
      u('pt', '0.473176473'),
      u('qt', '0.946352946'),
      u('gal', '3.785411784'),
      u('imp_floz', '0.0284130625'),
      u('imp_pt', '0.56826125'),
      u('imp_gal', '4.54609'),
    ],
  },
  time: {
    base: 's',
    units: [u('ms', '0.001'), u('s', '1'), u('min', '60'), u('h', '3600'), u('day', '86400'), u('week', '604800')],
  },
};

const UNIT_INDEX = new Map<string, { type: MeasurementType; factor: Dec }>(
  MEASUREMENT_TYPES.flatMap((type) =>
    UNIT_CATALOGUE[type].units.map((d) => [d.id, { type, factor: new Dec(d.factor) }] as const),
  ),
);
const UNIT_IDS = new Map<MeasurementType, readonly string[]>(
  MEASUREMENT_TYPES.map((type) => [type, Object.freeze(UNIT_CATALOGUE[type].units.map((d) => d.id))]),
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

export function isMeasurementType(x: unknown): x is MeasurementType {
  return typeof x === 'string' && (MEASUREMENT_TYPES as readonly string[]).includes(x);
}

/** Unit ids of `type` in catalogue order. @example unitsOf('time') // ['ms','s','min','h','day','week'] */
export function unitsOf(type: MeasurementType): readonly string[] {
  return UNIT_IDS.get(type) ?? [];
}

/** Type of a case-sensitive unit id, or undefined. @example typeOfUnit('L') // 'volume'; typeOfUnit('l') // undefined */
export function typeOfUnit(unit: string): MeasurementType | undefined {
  return UNIT_INDEX.get(unit)?.type;
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
 *
 * @example convertForStorage(new Dec(1), 'in3', 'ft3').toString() // '0.000578704' (exact 1/1728 repeats)
 */
export function convertForStorage(value: Dec, from: string, to: string): Dec {
  const converted = convert(value, from, to);
  return from === to ? converted : converted.toDecimalPlaces(9, Dec.ROUND_HALF_EVEN);
}
