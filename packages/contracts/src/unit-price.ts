/**
 * Unit prices the law asks for (PRODUCT.md §21): a price per reference quantity (per 1 kg, per
 * 100 ml, …) next to every price of goods sold by measure. The one computation of the server's
 * variant answers, labels and structured data, the client's cart helpers and the storefront
 * picker: plain TypeScript over BigInt, no dependency, so it runs unchanged in a browser and a
 * Shopify Function.
 */
import { currencyDigits } from './line-price.js';
import { divideHalfEven, exactDecimal as exact, formatMinor, pow10, type Scaled, toScaled } from './exact-decimal.js';
import { type MeasurementType, typeOfUnit, unitDefinition } from './units.js';

/** The measurement types a unit price is shown for: every type but `time`. */
export const UNIT_PRICED_TYPES = ['weight', 'volume', 'length', 'area'] as const;
export type UnitPricedType = (typeof UNIT_PRICED_TYPES)[number];

/** A quantity a unit price is stated per (`{ value: 100, unit: 'g' }`: per 100 g). */
export interface UnitPriceReference {
  value: number;
  unit: string;
}

/** The shop's setting `settings.unitPricing`. */
export interface UnitPricingSettings {
  enabled: boolean;
  reference?: Partial<Record<UnitPricedType, UnitPriceReference>>;
}

/** What a type's unit price is stated per when the shop names nothing: 1 kg, 1 L, 1 m, 1 m². */
export const DEFAULT_UNIT_PRICE_REFERENCES: Readonly<Record<UnitPricedType, UnitPriceReference>> = Object.freeze({
  weight: { value: 1, unit: 'kg' },
  volume: { value: 1, unit: 'L' },
  length: { value: 1, unit: 'm' },
  area: { value: 1, unit: 'm2' },
});

export function isUnitPricedType(type: string): type is UnitPricedType {
  return (UNIT_PRICED_TYPES as readonly string[]).includes(type);
}

/**
 * What a shop states a type's unit prices per, or undefined when it shows none: unit pricing is
 * off, or the type is `time`.
 * @example unitPriceReference({ enabled: true, reference: { weight: { value: 100, unit: 'g' } } }, 'volume') // { value: 1, unit: 'L' }
 */
export function unitPriceReference(
  settings: UnitPricingSettings | undefined,
  type: MeasurementType,
): UnitPriceReference | undefined {
  if (!settings?.enabled || !isUnitPricedType(type)) return undefined;
  return settings.reference?.[type] ?? DEFAULT_UNIT_PRICE_REFERENCES[type];
}

/** A unit price as the API answers it. */
export interface UnitPrice {
  /** Decimal text with the currency's minor digits (`'19.20'`). */
  amount: string;
  currency: string;
  reference: UnitPriceReference;
}

function factorOf(unit: string): Scaled {
  const definition = unitDefinition(unit);
  if (!definition) throw new RangeError(`unknown unit: ${unit}`);
  return toScaled(definition.factor);
}

/**
 * The price of `reference` when `measured` costs `price`: price ÷ (measured in the reference's
 * unit) × reference value, computed as one exact integer fraction and rounded half-even to the
 * currency's minor unit once, at the end.
 *
 * @param price decimal text in `currency` (`'4.80'`), the price of exactly `measured`.
 * @param measured the quantity that price buys (a variant's unit measurement, or a preset).
 * @throws RangeError when an amount is not decimal text or a finite number, `measured.value` is
 *   not greater than 0, a unit is unknown, or the two units are of different types.
 * @example unitPrice('4.80', { value: 250, unit: 'g' }, { value: 1, unit: 'kg' }, 'EUR') // { amount: '19.20', currency: 'EUR', reference: { value: 1, unit: 'kg' } }
 */
export function unitPrice(
  price: string,
  measured: { value: number | string; unit: string },
  reference: UnitPriceReference,
  currency: string,
): UnitPrice {
  const digits = currencyDigits(currency);
  const amount = exact(price, 'the price');
  const quantity = exact(measured.value, 'the measured quantity');
  const per = exact(reference.value, 'the reference quantity');
  if (quantity.int <= 0n) throw new RangeError(`the measured quantity must be greater than 0: ${measured.value}`);
  if (per.int <= 0n) throw new RangeError(`the reference quantity must be greater than 0: ${reference.value}`);
  const [from, to] = [typeOfUnit(measured.unit), typeOfUnit(reference.unit)];
  if (from === undefined || from !== to) {
    throw new RangeError(`cannot state a price per ${measured.unit} per ${reference.unit}`);
  }
  const [fromFactor, toFactor] = [factorOf(measured.unit), factorOf(reference.unit)];
  // price × per × toFactor ÷ (quantity × fromFactor), in minor units: every term an integer
  // times a power of ten, so the powers move to whichever side keeps them whole.
  const numerator = amount.int * per.int * toFactor.int;
  const denominator = quantity.int * fromFactor.int;
  const shift = digits + quantity.scale + fromFactor.scale - amount.scale - per.scale - toFactor.scale;
  const minor =
    shift >= 0
      ? divideHalfEven(numerator * pow10(shift), denominator)
      : divideHalfEven(numerator, denominator * pow10(-shift));
  return { amount: formatMinor(minor, digits), currency, reference };
}

/**
 * A unit price as a label shows it: the currency's symbol, the amount and the reference, the
 * number dropped when it is 1 (`€19.20/kg`, `€1.92/100g`), as `{Quantity}` renders a quantity.
 * The symbol comes from `Intl` where the runtime has it, else the code (`EUR 19.20/kg`).
 */
export function formatUnitPrice(price: UnitPrice, locale = 'en'): string {
  const { value, unit } = price.reference;
  return `${formatMoney(price.amount, price.currency, locale)}/${value === 1 ? '' : String(value)}${unit}`;
}

/** Money in a locale's way (`€19.20`), the amount's digits kept exactly (no float on the way). */
export function formatMoney(amount: string, currency: string, locale = 'en'): string {
  if (typeof Intl === 'undefined' || typeof Intl.NumberFormat !== 'function') return `${currency} ${amount}`;
  // A string amount keeps its exact decimal digits (Intl.NumberFormat v3, Node 20 and current browsers).
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  return (format.format as unknown as (value: string) => string)(amount);
}
