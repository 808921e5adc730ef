import { buildLineItemProperties, CartInputError } from '@tare/client';
import { resolveLabels } from '../../../domain/labels.js';
import { type MeasurementType, typeOfUnit } from '../../../domain/units.js';
import { unitPrice } from '../../../platform/local/sandbox/cart-lines.js';
import type { Db } from '../../../store/db.js';
import { listEnabledUnits } from '../../../store/repositories/catalog.js';
import { listLabelOverrides } from '../../../store/repositories/labels.js';
import type { Shop } from '../../../store/repositories/shops.js';
import type { VariantSettings } from './product-edits.js';

export interface PreviewLine {
  /** What the customer chose: `Default value`, or the preset (with its label when it has one). */
  choice: string;
  measurement: string;
  properties: { name: string; value: string }[];
  /** The line's unit price as the sandbox cart charges it, formatted in the shop's locale. */
  linePrice: string;
}

export interface CartLinePreview {
  /** The locale whose labels the visible properties use (the shop's default, resolved). */
  locale: string;
  lines: PreviewLine[];
  /** Why no line can be shown (values missing or out of range), in the cart helper's words. */
  problems: string[];
}

/**
 * The cart line a customer would get for the default value (rules) or each preset: properties
 * built by the client's `buildLineItemProperties` (the documented way a storefront adds a
 * measured line) with the labels the shop would serve once the unit is saved, and the price the
 * sandbox cart charges for them (`unitPrice`, the sandbox's own pricing of `_svc_data`, which
 * charges a preset's own price when it has one).
 */
export async function previewCartLines(
  db: Db,
  shop: Shop,
  product: { id: string; measurementType: MeasurementType },
  variant: { id: string; price: string } & VariantSettings,
): Promise<CartLinePreview> {
  const unit = variant.unitMeasurement.unit;
  const [enabled, overrides] = await Promise.all([listEnabledUnits(db, shop.id), listLabelOverrides(db, shop.id)]);
  const type = product.measurementType;
  const { locale, labels } = resolveLabels({
    requestedLocale: shop.defaultLocale,
    shopDefaultLocale: shop.defaultLocale,
    // The unit being previewed counts as enabled: saving it adds its labels to the shop's set.
    enabled: typeOfUnit(unit) === type ? [...enabled, { type, units: [unit] }] : enabled,
    overrides,
  });
  const store = variant.settings.onlineStore;
  // A variant made from dimensions (PRODUCT.md §19) is previewed at each factor's default value.
  const factors = store.dimensions?.map((d) => d.fixed ?? d.rules?.defaultValue);
  const choices = factors
    ? [{ choice: 'Default dimensions', value: 0 }]
    : store.displayStyle === 'number'
      ? store.rules
        ? [{ choice: 'Default value', value: store.rules.defaultValue }]
        : []
      : (store.presets ?? []).map((preset) => ({
          choice: preset.label === undefined ? 'Preset' : `Preset “${preset.label}”`,
          value: preset.value,
        }));
  const lines: PreviewLine[] = [];
  const problems = new Set<string>();
  for (const { choice, value } of choices) {
    try {
      const properties = buildLineItemProperties({
        product,
        variant: {
          id: variant.id,
          unitMeasurement: variant.unitMeasurement,
          ...(factors ? { settings: { onlineStore: store } } : {}),
        },
        labels,
        ...(factors ? { factors } : { measurement: { value, unit } }),
        price: variant.price,
        currency: shop.currency,
        locale,
      });
      const price = priceOf(variant, properties, shop.currency);
      if (!price.ok) {
        problems.add(`${choice}: ${price.problem}`);
        continue;
      }
      const linePrice = formatMoney(price.amount, shop, locale);
      const measured = factors ? measuredValue(properties) : value;
      lines.push({ choice, measurement: `${measured} ${unit}`, properties, linePrice });
    } catch (error) {
      if (!(error instanceof CartInputError)) throw error;
      for (const reason of error.reasons) problems.add(reason);
    }
  }
  if (choices.length === 0) problems.add('no default value or preset to preview');
  return { locale, lines, problems: [...problems] };
}

/**
 * What the sandbox cart charges for the line, presets' own prices included; a price typed in the
 * form that is no amount is the preview's problem to show (the save's validation names it too).
 */
function priceOf(
  variant: { price: string } & VariantSettings,
  properties: { name: string; value: string }[],
  currency: string,
): { ok: true; amount: string } | { ok: false; problem: string } {
  const store = variant.settings.onlineStore;
  const priced = {
    price: variant.price,
    unit: variant.unitMeasurement.unit,
    unitValue: String(variant.unitMeasurement.value),
    presets: store.displayStyle === 'number' ? null : store.presets,
    dimensions: store.dimensions ?? null,
    overagePercent: store.overagePercent === undefined ? null : String(store.overagePercent),
    rules: store.rules ?? null,
  };
  try {
    return { ok: true, amount: unitPrice(priced, properties, currency) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { ok: false, problem: error.message };
  }
}

/** The measure a line made from dimensions carries (`dimensions[0]`, computed by the cart helper). */
function measuredValue(properties: { name: string; value: string }[]): number {
  const svc = JSON.parse(properties[0]!.value) as { measurement: { dimensions: { value: number }[] } };
  return svc.measurement.dimensions[0]!.value;
}

function formatMoney(amount: string, shop: Shop, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: shop.currency }).format as unknown as (
    value: string,
  ) => string;
  // Decimal text is formatted exactly (Intl.NumberFormat v3); the ES2022 typings list only number.
  return format(amount);
}
