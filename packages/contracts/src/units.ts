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
  /**
   * Its common code in UN/ECE Recommendation 20 (Annexes II and III), which schema.org's
   * `unitCode` and e-invoices name units by. units.test.ts checks each against the published list.
   */
  readonly rec20: string;
}

export interface UnitGroup {
  readonly base: string;
  readonly units: readonly UnitDefinition[];
}

const u = (id: string, factor: string, rec20: string): UnitDefinition => Object.freeze({ id, factor, rec20 });
const group = (base: string, units: UnitDefinition[]): UnitGroup =>
  Object.freeze({ base, units: Object.freeze(units) });

/**
 * Unit catalogue from the product doc. Factors are strings because most of
 * them (e.g. 0.1, 0.0254) have no exact binary floating-point form.
 */
export const UNIT_CATALOGUE: Readonly<Record<MeasurementType, UnitGroup>> = Object.freeze({
  weight: group('kg', [
    u('mg', '0.000001', 'MGM'),
    u('g', '0.001', 'GRM'),
    u('kg', '1', 'KGM'),
    u('t', '1000', 'TNE'),
    u('oz', '0.028349523125', 'ONZ'),
    u('lb', '0.45359237', 'LBR'),
    u('st', '6.35029318', 'STI'),
  ]),
  length: group('m', [
    u('mm', '0.001', 'MMT'),
    u('cm', '0.01', 'CMT'),
    u('m', '1', 'MTR'),
    u('km', '1000', 'KMT'),
    u('in', '0.0254', 'INH'),
    u('ft', '0.3048', 'FOT'),
    u('yd', '0.9144', 'YRD'),
    u('mi', '1609.344', 'SMI'),
  ]),
  area: group('m2', [
    u('mm2', '0.000001', 'MMK'),
    u('cm2', '0.0001', 'CMK'),
    u('m2', '1', 'MTK'),
    u('ha', '10000', 'HAR'),
    u('km2', '1000000', 'KMK'),
    u('in2', '0.00064516', 'INK'),
    u('ft2', '0.09290304', 'FTK'),
    u('yd2', '0.83612736', 'YDK'),
    u('ac', '4046.8564224', 'ACR'),
  ]),
  volume: group('L', [
    u('ml', '0.001', 'MLT'),
    u('cl', '0.01', 'CLT'),
    u('dl', '0.1', 'DLT'),
    u('L', '1', 'LTR'),
    u('m3', '1000', 'MTQ'),
    u('cm3', '0.001', 'CMQ'),
    u('in3', '0.016387064', 'INQ'),
    u('ft3', '28.316846592', 'FTQ'),
    u('floz', '0.0295735295625', 'OZA'),
    u('cup', '0.2365882365', 'G21'),
    u('pt', '0.473176473', 'PTL'),
    u('qt', '0.946352946', 'QTL'),
    u('gal', '3.785411784', 'GLL'),
    u('imp_floz', '0.0284130625', 'OZI'),
    u('imp_pt', '0.56826125', 'PTI'),
    u('imp_gal', '4.54609', 'GLI'),
  ]),
  time: group('s', [
    u('ms', '0.001', 'C26'),
    u('s', '1', 'SEC'),
    u('min', '60', 'MIN'),
    u('h', '3600', 'HUR'),
    u('day', '86400', 'DAY'),
    u('week', '604800', 'WEE'),
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

const UNIT_DEFINITION = new Map<string, UnitDefinition>(
  MEASUREMENT_TYPES.flatMap((type) => UNIT_CATALOGUE[type].units.map((d) => [d.id, d] as const)),
);

/** A unit's definition (factor, Rec 20 code) by its case-sensitive id, or undefined. @example unitDefinition('L')?.rec20 // 'LTR' */
export function unitDefinition(unit: string): UnitDefinition | undefined {
  return UNIT_DEFINITION.get(unit);
}
