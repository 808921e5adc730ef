import {
  align,
  bookableMeasureIssue,
  dimensionsFromFactors,
  formatMinor,
  formatMoney as sharedFormatMoney,
  plainNumber,
  toScaled,
} from '@tare/contracts';
import { CartInputError } from '../cart/errors.js';
import { numericVariantId } from '../cart/ids.js';
import { buildLineItemProperties, type LineItemProperty } from '../cart/line-item.js';
import { cartLinePrice } from '../cart/price.js';
import { checkMeasurementRules } from '../cart/rules.js';
import type { PickerVariantConfig, PricingMode } from './config.js';

/** What the picker adds with `POST {root}cart/add.js` (Shopify's Ajax Cart API). */
export interface CartAddItem {
  id: number | string;
  quantity: number;
  properties: Record<string, string>;
}

export type PickedLine =
  | { ok: false; reasons: string[] }
  | {
      ok: true;
      item: CartAddItem;
      /** The visible properties the line carries (unit price, net measurement). */
      visible: LineItemProperty[];
      /** What the checkout charges for the whole line: decimal text at the currency's minor unit. */
      linePrice: string;
    };

export interface PickLineInput {
  variantId: string;
  variant: PickerVariantConfig;
  pricingMode: PricingMode;
  /** The shop's labels for the locale (`shopLabels`). */
  labels: Record<string, string>;
  /** BCP-47 tag that formats prices in the properties. */
  locale: string;
  /** What the customer chose, in the variant's unit; undefined when the field is empty or not a number. */
  value: number | undefined;
  /**
   * For a variant made from dimensions (PRODUCT.md §19): each factor's value in its setting's
   * unit (a fixed one's is ignored); `value` is then computed from them.
   */
  factors?: readonly (number | undefined)[];
}

/**
 * The cart line for what the customer chose, or every reason it cannot be added — the rules'
 * own check (`checkMeasurementRules`), the cart helpers' line properties and their one price
 * rule, never a copy of them. Pricing modes (§18):
 * - `function`: quantity 1 of a line measuring `value`; the checkout charges `cartLinePrice`.
 * - `base_units`: `value ÷ unitMeasurement.value` whole units, each stating one unit
 *   measurement in `_svc_data`; Shopify charges the variant's price per unit, so a value that is
 *   not a whole number of units is refused (and a preset's own price does not apply).
 * A line Tare could not book exactly (`bookableMeasureIssue`: past the whole units a level holds)
 * is refused in both, as the checkout function would not price it.
 * @example pickLine({ variantId: '2001', variant: coffeePerKg, pricingMode: 'function', labels, locale: 'en', value: 1.25 })
 *   // { ok: true, item: { id: 2001, quantity: 1, properties: { _svc_data: '…', … } }, linePrice: '30.00', … }
 */
export function pickLine(input: PickLineInput): PickedLine {
  const { variant } = input;
  const { unit, value: unitValue } = variant.unitMeasurement;
  const made = madeFromFactors(input);
  if (made && !made.ok) return made;
  const value = made ? made.value : input.value;
  if (value === undefined || !Number.isFinite(value)) return { ok: false, reasons: [`Enter a quantity in ${unit}`] };
  const settings = {
    onlineStore: { displayStyle: variant.displayStyle, rules: variant.rules, presets: variant.presets },
  };
  const reasons = checkMeasurementRules(value, { settings });
  let quantity = 1;
  if (reasons.length === 0 && input.pricingMode === 'base_units') {
    const [measured = 0n, each = 1n] = align(value, unitValue);
    if (measured % each !== 0n) {
      reasons.push(`${plainNumber(value)} ${unit} is not a whole number of ${plainNumber(unitValue)} ${unit} units`);
    }
    quantity = Number(measured / each);
  }
  const lineMeasure = input.pricingMode === 'function' ? value : unitValue;
  // What Tare cannot book, the checkout function leaves at the variant's own price: never offer it.
  const unbookable = reasons.length === 0 && bookableMeasureIssue(lineMeasure, quantity, unitValue, unit);
  if (unbookable) reasons.push(unbookable);
  if (reasons.length > 0) return { ok: false, reasons };
  try {
    const properties = buildLineItemProperties({
      product: { id: '', measurementType: variant.type },
      variant: {
        id: input.variantId,
        unitMeasurement: variant.unitMeasurement,
        ...(variant.unitPrice ? { unitPrice: variant.unitPrice } : {}),
        settings: {
          onlineStore: {
            ...(variant.presets ? { presets: variant.presets } : {}),
            ...(variant.rules ? { rules: variant.rules } : {}),
            ...(variant.dimensions ? { dimensions: variant.dimensions } : {}),
            ...(variant.overagePercent === undefined ? {} : { overagePercent: variant.overagePercent }),
          },
        },
      },
      labels: input.labels,
      // A line made from dimensions states its factors; dimensions[0] is computed from them.
      ...(made ? { factors: input.factors } : { measurement: { value: lineMeasure, unit } }),
      price: variant.price,
      currency: variant.currency,
      locale: input.locale,
    });
    const id = numericVariantId(input.variantId);
    return {
      ok: true,
      item: { id: Number.isSafeInteger(Number(id)) ? Number(id) : id, quantity, properties: toObject(properties) },
      visible: properties.slice(1),
      linePrice: linePrice({ ...input, value }, quantity),
    };
  } catch (error) {
    if (error instanceof CartInputError) return { ok: false, reasons: error.reasons };
    throw error;
  }
}

/**
 * For a variant made from dimensions: the measure its factors make, or why they cannot be used
 * (a factor missing or outside its rules; base-unit pricing, whose lines state one unit
 * measurement, cannot carry a measure made from factors). Undefined for other variants.
 */
function madeFromFactors(
  input: PickLineInput,
): { ok: true; value: number } | { ok: false; reasons: string[] } | undefined {
  const { variant } = input;
  const settings = variant.dimensions;
  if (!settings?.length) return undefined;
  if (input.pricingMode === 'base_units') {
    return { ok: false, reasons: ['A measure made from dimensions is charged by the checkout function only'] };
  }
  const missing = settings.flatMap((s, i) => {
    const given = input.factors?.[i];
    return s.fixed === undefined && (given === undefined || !Number.isFinite(given))
      ? [`Enter the ${s.name} in ${s.unit}`]
      : [];
  });
  if (missing.length) return { ok: false, reasons: missing };
  const config = { dimensions: settings, overagePercent: variant.overagePercent, rules: variant.rules };
  const [first] = dimensionsFromFactors(input.factors as number[], variant.unitMeasurement.unit, config);
  return { ok: true, value: first.value };
}

function linePrice({ variant, pricingMode, value }: PickLineInput, quantity: number): string {
  const { price, currency, unitMeasurement } = variant;
  if (pricingMode === 'function') {
    const settings = { onlineStore: { presets: variant.presets } };
    return cartLinePrice({
      variant: { unitMeasurement, settings },
      measurement: { value: value!, unit: unitMeasurement.unit },
      price,
      currency,
    });
  }
  // Base units: Shopify charges the variant's own price for each unit.
  const each = toScaled(cartLinePrice({ variant: { unitMeasurement }, price, currency }));
  return formatMinor(each.int * BigInt(quantity), each.scale);
}

function toObject(properties: LineItemProperty[]): Record<string, string> {
  return Object.fromEntries(properties.map((p) => [p.name, p.value]));
}

/**
 * Money as the customer reads it, formatted exactly from its decimal text (the contracts'
 * `formatMoney`, which the unit price labels use too).
 * @example formatMoney('30.00', 'USD', 'en') // '$30.00'
 */
export function formatMoney(amount: string, currency: string, locale: string): string {
  return sharedFormatMoney(amount, currency, locale);
}
