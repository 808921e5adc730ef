/**
 * Unit catalogue of PRODUCT.md §5, as plain data. No arithmetic lives here (this package is
 * dependency-free); exact conversions are in the server's `domain/units.ts`.
 */

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

const u = (id: string, factor: string): UnitDefinition => Object.freeze({ id, factor });
const group = (base: string, units: UnitDefinition[]): UnitGroup =>
  Object.freeze({ base, units: Object.freeze(units) });

/**
 * Unit catalogue from the product doc. Factors are strings because most of
 * them (e.g. 0.1, 0.0254) have no exact binary floating-point form.
 */
export const UNIT_CATALOGUE: Readonly<Record<MeasurementType, UnitGroup>> = Object.freeze({
  weight: group('kg', [
    u('mg', '0.000001'),
    u('g', '0.001'),
    u('kg', '1'),
    u('t', '1000'),
    u('oz', '0.028349523125'),
    u('lb', '0.45359237'),
    u('st', '6.35029318'),
  ]),
  length: group('m', [
    u('mm', '0.001'),
    u('cm', '0.01'),
    u('m', '1'),
    u('km', '1000'),
    u('in', '0.0254'),
    u('ft', '0.3048'),
    u('yd', '0.9144'),
    u('mi', '1609.344'),
  ]),
  area: group('m2', [
    u('mm2', '0.000001'),
    u('cm2', '0.0001'),
    u('m2', '1'),
    u('ha', '10000'),
    u('km2', '1000000'),
    u('in2', '0.00064516'),
    u('ft2', '0.09290304'),
    u('yd2', '0.83612736'),
    u('ac', '4046.8564224'),
  ]),
  volume: group('L', [
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
  ]),
  time: group('s', [
    u('ms', '0.001'),
    u('s', '1'),
    u('min', '60'),
    u('h', '3600'),
    u('day', '86400'),
    u('week', '604800'),
  ]),
});

const UNIT_TYPE = new Map<string, MeasurementType>(
  MEASUREMENT_TYPES.flatMap((type) => UNIT_CATALOGUE[type].units.map((d) => [d.id, type] as const)),
);
const UNIT_IDS = new Map<MeasurementType, readonly string[]>(
  MEASUREMENT_TYPES.map((type) => [type, Object.freeze(UNIT_CATALOGUE[type].units.map((d) => d.id))]),
);

export function isMeasurementType(x: unknown): x is MeasurementType {
  return typeof x === 'string' && (MEASUREMENT_TYPES as readonly string[]).includes(x);
}

/** Unit ids of `type` in catalogue order. @example unitsOf('time') // ['ms','s','min','h','day','week'] */
export function unitsOf(type: MeasurementType): readonly string[] {
  return UNIT_IDS.get(type) ?? [];
}

/** Type of a case-sensitive unit id, or undefined. @example typeOfUnit('L') // 'volume'; typeOfUnit('l') // undefined */
export function typeOfUnit(unit: string): MeasurementType | undefined {
  return UNIT_TYPE.get(unit);
}
