import { randomBytes } from 'node:crypto';
import { currencyDigits, type LinePricing, lineUnitPrice, validateSvcData } from '@tare/contracts';
import { Dec, decimalFromJson } from '../../../domain/decimal.js';
import { exactQuantity } from '../../../domain/quantity.js';
import { svcDataVariant, type VariantFactorFields } from '../../../domain/variant-factors.js';

export type LineProperty = { name: string; value: string };

/** One line of a sandbox cart, as stored (`sandbox_carts.items`). */
export interface CartLine {
  /** Stable for the line's life: `<variantId>:<random>`, so equal lines kept apart differ. */
  key: string;
  variantId: string;
  productId: string;
  quantity: number;
  /** In the order the customer gave them, as the platform keeps them on the order line. */
  properties: LineProperty[];
  /** Unit price as charged: decimal text in the shop's currency, at its minor unit. */
  price: string;
}

/** What a line is priced from: the variant's price per unit measurement and its presets. */
export interface PricedVariant extends Pick<LinePricing, 'presets'>, VariantFactorFields {
  price: string;
  unit: string;
  unitValue: string;
}

/**
 * The variant id of an add-to-cart item: a JSON number, a numeric string, or a global id.
 * @example variantIdOf('gid://shopify/ProductVariant/2001') // '2001'
 */
export function variantIdOf(id: number | string): string {
  return typeof id === 'number' ? String(id) : id.slice(id.lastIndexOf('/') + 1);
}

/**
 * The properties as the platform keeps them: a list of `{ name, value }`. An object keeps its
 * key order; a name given twice in a list is reported (at its index) rather than one value
 * silently winning.
 */
export function propertyList(
  properties: Record<string, string> | LineProperty[] | undefined,
): { ok: true; list: LineProperty[] } | { ok: false; index: number; name: string } {
  if (properties === undefined) return { ok: true, list: [] };
  if (!Array.isArray(properties)) {
    return { ok: true, list: Object.entries(properties).map(([name, value]) => ({ name, value })) };
  }
  const seen = new Set<string>();
  for (const [index, { name }] of properties.entries()) {
    if (seen.has(name)) return { ok: false, index, name };
    seen.add(name);
  }
  return { ok: true, list: properties.map(({ name, value }) => ({ name, value })) };
}

/** Two property lists are the same line content when they hold the same names and values, in any order. */
export function sameProperties(a: LineProperty[], b: LineProperty[]): boolean {
  if (a.length !== b.length) return false;
  const values = new Map(a.map((p) => [p.name, p.value]));
  return b.every((p) => values.get(p.name) === p.value);
}

/**
 * A line's unit price in the shop's currency, by the shared rule (`lineUnitPrice`): a measured
 * line (valid `_svc_data` for the variant, so `dimensions[0]` is in the variant's unit) costs its
 * preset's own price when its measurement is a preset that has one, else measurement ÷
 * unitMeasurement.value × variant price; any other line costs the variant price. Rounded once,
 * half-even, to the currency's minor unit.
 * @example unitPrice({ price: '24.00', unit: 'kg', unitValue: '1' }, [svc 2.5 kg], 'USD') // '60.00'
 */
export function unitPrice(variant: PricedVariant, properties: LineProperty[], currency: string): string {
  const raw = properties.find((p) => p.name === '_svc_data')?.value;
  const checked = raw === undefined ? undefined : validateSvcData(raw, svcDataVariant(variant));
  const measurement = checked?.ok ? checked.data.measurement.dimensions[0].value : undefined;
  return lineUnitPrice(variant, measurement, currencyDigits(currency));
}

/**
 * Why Tare could not keep the line's measurement exactly (`exactQuantity`: more than 9 decimal
 * places of its unit, or a value that rounds to 0), or undefined when it can or the line is not
 * measured. The sandbox refuses such a line at add, so an integrator hears of it at once; on
 * Shopify the line would be sold and reported skipped. (A line past what a level holds is
 * refused by what the cart's money can carry, and skipped at booking.)
 */
export function inexactMeasure(variant: PricedVariant, properties: LineProperty[]): string | undefined {
  const raw = properties.find((p) => p.name === '_svc_data')?.value;
  const checked = raw === undefined ? undefined : validateSvcData(raw, svcDataVariant(variant));
  if (!checked?.ok) return undefined;
  const { value, unit } = checked.data.measurement.dimensions[0];
  const kept = exactQuantity(decimalFromJson(value), unit, variant.unit);
  return kept.ok ? undefined : `${value} ${unit} ${kept.message}`;
}

/**
 * The most minor units an amount the sandbox answers may hold: its answers carry money as JSON
 * integers (Shopify's Ajax API), exact only up to 2^53 − 1 (90,071,992,547,409.91 USD).
 */
export const MAX_MINOR_UNITS = Number.MAX_SAFE_INTEGER;

/**
 * Money as Shopify's Ajax API gives it: an integer count of the currency's minor unit.
 * @example minorUnits('60.00', 'USD') // 6000
 */
export function minorUnits(amount: string | Dec, currency: string): number {
  return exactMinorUnits(amount, currency).toNumber();
}

function exactMinorUnits(amount: string | Dec, currency: string): Dec {
  const digits = currencyDigits(currency);
  return new Dec(amount).times(new Dec(10).pow(digits)).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN);
}

/** A line's price (unit price × quantity) in the currency's minor units, exactly. */
export function linePriceMinor(line: CartLine, currency: string): Dec {
  return exactMinorUnits(line.price, currency).times(line.quantity);
}

/**
 * Which amount of the cart's answer the line at `index` would make inexact (past
 * `MAX_MINOR_UNITS`), or undefined when every amount is exact: its unit price, its line price
 * (unit price × quantity) or the cart's total. `othersTotal` is the other lines' total in minor
 * units (`linePriceMinor`), for a caller that keeps it as it adds item after item (summing every
 * line again per item is quadratic in a 250-item add); without it, it is summed here.
 */
export function inexactAmount(
  lines: readonly CartLine[],
  index: number,
  currency: string,
  othersTotal?: Dec,
): 'price' | 'line_price' | 'total_price' | undefined {
  const line = lines[index]!;
  if (exactMinorUnits(line.price, currency).gt(MAX_MINOR_UNITS)) return 'price';
  const price = linePriceMinor(line, currency);
  if (price.gt(MAX_MINOR_UNITS)) return 'line_price';
  const others =
    othersTotal ??
    lines.reduce((sum, other, i) => (i === index ? sum : sum.plus(linePriceMinor(other, currency))), new Dec(0));
  return others.plus(price).gt(MAX_MINOR_UNITS) ? 'total_price' : undefined;
}

/** `MAX_MINOR_UNITS` in the currency, for messages: `90071992547409.91 USD`. */
export function largestAmount(currency: string): string {
  return `${new Dec(MAX_MINOR_UNITS).div(new Dec(10).pow(currencyDigits(currency))).toFixed()} ${currency}`;
}

/** A new line's key: the variant id, then 16 random bytes (Shopify's keys are `variant:hash`). */
export function newLineKey(variantId: string): string {
  return `${variantId}:${randomBytes(16).toString('hex')}`;
}

/**
 * Adds a line to the cart: with `merge` (the shop's `mergeMatchingLineItems`), a line of the
 * same variant and properties takes the quantity; otherwise the line is appended. Returns the
 * new list and the index of the line that now holds the item.
 */
export function addLine(
  lines: CartLine[],
  item: Omit<CartLine, 'key'>,
  merge: boolean,
): { lines: CartLine[]; index: number } {
  if (merge) {
    const index = lines.findIndex(
      (l) => l.variantId === item.variantId && sameProperties(l.properties, item.properties),
    );
    if (index >= 0) {
      const merged = { ...lines[index]!, quantity: lines[index]!.quantity + item.quantity };
      return { lines: lines.map((l, i) => (i === index ? merged : l)), index };
    }
  }
  return { lines: [...lines, { key: newLineKey(item.variantId), ...item }], index: lines.length };
}
