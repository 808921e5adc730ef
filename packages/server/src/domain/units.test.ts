import { describe, expect, it } from 'vitest';
import { Dec, toPlainString } from './decimal.js';
import {
  convert,
  convertForStorage,
  factorOf,
  isMeasurementType,
  isUnitOfType,
  MEASUREMENT_TYPES,
  typeOfUnit,
  UNIT_CATALOGUE,
  UnitConversionError,
  unitsOf,
} from './units.js';

const ALL_UNITS = MEASUREMENT_TYPES.flatMap((type) =>
  UNIT_CATALOGUE[type].units.map((d) => ({ type, id: d.id, factor: d.factor, base: UNIT_CATALOGUE[type].base })),
);
const AWKWARD = ['1', '0.1', '123456789.123456789', '1e-9', '-2.5'];
const ROUND_TRIPS = ALL_UNITS.flatMap((unit) => AWKWARD.map((v) => ({ ...unit, v })));
const CROSS_TYPE = ALL_UNITS.flatMap((a) =>
  ALL_UNITS.filter((b) => b.type !== a.type).map((b) => ({ from: a.id, to: b.id, toType: b.type })),
);
const plain = (d: Dec) => toPlainString(d);

describe('catalogue', () => {
  it.each(ALL_UNITS)('when reading the factor of $id, then it is exactly $factor $base', ({ id, factor, base }) => {
    expect(plain(factorOf(id))).toBe(factor);
    expect(plain(convert(new Dec(1), id, base))).toBe(factor);
  });

  it.each(ALL_UNITS)('when looking up $id, then it belongs to $type only', ({ id, type }) => {
    expect(typeOfUnit(id)).toBe(type);
    expect(unitsOf(type)).toContain(id);
    expect(MEASUREMENT_TYPES.filter((t) => isUnitOfType(id, t))).toEqual([type]);
  });

  it('when listing units, then they keep catalogue order and each type has its base unit at factor 1', () => {
    expect(unitsOf('time')).toEqual(['ms', 's', 'min', 'h', 'day', 'week']);
    for (const type of MEASUREMENT_TYPES) expect(plain(factorOf(UNIT_CATALOGUE[type].base))).toBe('1');
  });

  it('when checking measurement types, then only the five names pass', () => {
    expect(MEASUREMENT_TYPES.every(isMeasurementType)).toBe(true);
    expect([undefined, 1, 'Weight', 'mass', ''].some(isMeasurementType)).toBe(false);
  });

  it("when ids differ only by case, then they are different units ('KG', 'l' unknown, 'L' known)", () => {
    expect(typeOfUnit('KG')).toBeUndefined();
    expect(typeOfUnit('l')).toBeUndefined();
    expect(typeOfUnit('L')).toBe('volume');
    expect(() => convert(new Dec(1), 'KG', 'g')).toThrow(UnitConversionError);
    expect(() => factorOf('l')).toThrow(UnitConversionError);
  });
});

describe('convert', () => {
  it.each(ROUND_TRIPS)('when $v $id goes to $base and back, then it is exactly $v', ({ id, base, v }) => {
    const start = new Dec(v);
    const back = convert(convert(start, id, base), base, id);
    expect(plain(back)).toBe(plain(start));
  });

  it.each([
    ['1', 'lb', 'kg', '0.45359237'],
    ['1', 'mi', 'm', '1609.344'],
    ['1', 'ac', 'm2', '4046.8564224'],
    ['1', 'gal', 'L', '3.785411784'],
    ['1', 'week', 's', '604800'],
    ['16', 'oz', 'lb', '1'],
    ['12', 'in', 'ft', '1'],
    ['1', 'ft3', 'in3', '1728'],
    ['1', 'imp_gal', 'imp_floz', '160'],
    ['250', 'g', 'kg', '0.25'],
  ])('when converting %s %s to %s, then it is exactly %s', (v, from, to, expected) => {
    expect(plain(convert(new Dec(v), from, to))).toBe(expected);
  });

  it('when converting lb to kg and back, then the start value returns exactly', () => {
    const kg = convert(new Dec('3.3'), 'lb', 'kg');
    expect(plain(kg)).toBe('1.496854821');
    expect(plain(convert(kg, 'kg', 'lb'))).toBe('3.3');
  });

  it('when a 29-digit value goes g to kg and back, then no digit is lost (precision >= 40)', () => {
    const v = '99999999999999999999.123456789';
    const kg = convert(new Dec(v), 'g', 'kg');
    expect(plain(kg)).toBe('99999999999999999.999123456789');
    expect(plain(convert(kg, 'kg', 'g'))).toBe(v);
  });

  it.each(CROSS_TYPE)('when converting $from to $to, then it throws UnitConversionError', ({ from, to, toType }) => {
    const error = (() => {
      try {
        convert(new Dec(1), from, to);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnitConversionError);
    expect(error).toMatchObject({ from, to, validUnits: unitsOf(toType) });
  });

  it('when a unit is unknown, then it throws with the units accepted by the known side', () => {
    expect(() => convert(new Dec(1), 'furlong', 'm')).toThrow(
      expect.objectContaining({ from: 'furlong', to: 'm', validUnits: unitsOf('length') }),
    );
    expect(() => convert(new Dec(1), 'kg', 'stone')).toThrow(
      expect.objectContaining({ validUnits: unitsOf('weight') }),
    );
    expect(() => convert(new Dec(1), 'x', 'y')).toThrow(expect.objectContaining({ validUnits: [] }));
  });
});

describe('convertForStorage', () => {
  it('when the exact result has at most 9 decimals, then it is unchanged', () => {
    expect(plain(convertForStorage(new Dec('3.3'), 'lb', 'kg'))).toBe('1.496854821');
    expect(plain(convertForStorage(new Dec('1'), 'mg', 'kg'))).toBe('0.000001');
  });

  it('when the exact result needs more than 9 decimals, then it is rounded half-even', () => {
    expect(plain(convertForStorage(new Dec(1), 'in3', 'ft3'))).toBe('0.000578704');
    expect(plain(convertForStorage(new Dec('0.0000005'), 'mg', 'g'))).toBe('0');
    expect(plain(convertForStorage(new Dec('0.0000015'), 'mg', 'g'))).toBe('0.000000002');
    expect(plain(convertForStorage(new Dec('0.0000025'), 'mg', 'g'))).toBe('0.000000002');
  });
});
