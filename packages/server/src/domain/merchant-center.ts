import type { UnitPriceReference } from '@tare/contracts';
import { decimalFromJson, toPlainString } from './decimal.js';
import { convert } from './units.js';

/**
 * Google Merchant Center's unit pricing attributes (support.google.com/merchants/answer/6324455
 * and 6324490): the units Google reads, by Tare unit id. Google's `floz`, `pt`, `qt` and `gal`
 * are the US measures, which are Tare's too; Tare's `L`, `m3`, `m2` and `ft2` are Google's `l`,
 * `cbm`, `sqm` and `sqft`.
 */
const GOOGLE_UNITS: Readonly<Record<string, string>> = {
  mg: 'mg',
  g: 'g',
  kg: 'kg',
  oz: 'oz',
  lb: 'lb',
  floz: 'floz',
  pt: 'pt',
  qt: 'qt',
  gal: 'gal',
  ml: 'ml',
  cl: 'cl',
  L: 'l',
  m3: 'cbm',
  in: 'in',
  ft: 'ft',
  yd: 'yd',
  cm: 'cm',
  m: 'm',
  ft2: 'sqft',
  m2: 'sqm',
};

/** A unit Google does not read is stated in the metric unit of its type that it does, exactly. */
const GOOGLE_FALLBACK: Readonly<Record<string, string>> = { weight: 'kg', volume: 'L', length: 'm', area: 'm2' };

// A base measure is a whole number Google lists, or one of its metric pairs.
const BASE_NUMBERS = new Set(['1', '2', '4', '8', '10', '100']);
const BASE_PAIRS = new Set(['75 cl', '750 ml', '50 kg', '1000 kg']);

export interface MerchantCenterUnitPricing {
  /** What the price buys, in a unit Google reads (`'250 g'`). */
  unit_pricing_measure: string;
  /** What Google should state the unit price per (`'1 kg'`); absent when Google cannot read the shop's reference. */
  unit_pricing_base_measure?: string;
  /** Why the base measure is left out, when it is. */
  note?: string;
}

/**
 * The attributes for a variant sold per `measured` (a weight, volume, length or area) whose shop
 * states unit prices per `reference`. A measure in a unit Google does not read (t, mm2, imp_floz,
 * …) is converted exactly to kg, l, m or sqm; a reference Google does not read (not 1, 2, 4, 8,
 * 10 or 100 of a unit it reads, nor 75 cl, 750 ml, 50 kg or 1000 kg) is left out with a note,
 * and Google then chooses the base itself.
 * @example merchantCenterUnitPricing({ value: 250, unit: 'g' }, 'weight', { value: 1, unit: 'kg' }) // { unit_pricing_measure: '250 g', unit_pricing_base_measure: '1 kg' }
 */
export function merchantCenterUnitPricing(
  measured: { value: number; unit: string },
  type: 'weight' | 'volume' | 'length' | 'area',
  reference: UnitPriceReference,
): MerchantCenterUnitPricing {
  const value = decimalFromJson(measured.value);
  const unit = GOOGLE_UNITS[measured.unit] ? measured.unit : GOOGLE_FALLBACK[type]!;
  const measure = `${toPlainString(convert(value, measured.unit, unit))} ${GOOGLE_UNITS[unit]}`;
  const googleUnit = GOOGLE_UNITS[reference.unit];
  const number = toPlainString(decimalFromJson(reference.value));
  const base = googleUnit && `${number} ${googleUnit}`;
  if (base && (BASE_NUMBERS.has(number) || BASE_PAIRS.has(base))) {
    return { unit_pricing_measure: measure, unit_pricing_base_measure: base };
  }
  return {
    unit_pricing_measure: measure,
    note:
      `Google Merchant Center does not take ${number} ${reference.unit} as a base measure ` +
      '(1, 2, 4, 8, 10 or 100 of oz, lb, mg, g, kg, floz, pt, qt, gal, ml, cl, l, cbm, in, ft, yd, cm, m, sqft, sqm; ' +
      'or 75 cl, 750 ml, 50 kg, 1000 kg); it chooses the base itself',
  };
}
