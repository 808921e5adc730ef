/**
 * Tare's Cart Transform function (PRODUCT.md §18, target `cart.transform.run`, API 2026-04): a
 * measured line (`_svc_data` of 1.25 kg on a variant priced per kg) is charged for its measure.
 *
 * A line is priced only when its `_svc_data` is valid for the variant's metafield
 * (`$app:tare`/`measurement`), its measure passes the variant's rules (min, max, increment or a
 * preset) and Tare can book it exactly; it is then charged, per unit of its quantity,
 * `lineUnitPrice` of its measure: measure ÷ unit measurement × Shopify's price for one unit
 * (`cost.amountPerQuantity`), or a preset's own price. Every other line gets no operation and
 * stays at the variant's own price, so a forged property can never make a line cheaper than the
 * rules allow. Every rule is the one in @tare/contracts: the sandbox, the picker and the server
 * price and check lines with the same functions.
 *
 * Plain JavaScript once bundled: no Node API and no `Intl` (Shopify runs it on QuickJS).
 */
import {
  bookableMeasureIssue,
  checkMeasurementRules,
  configSvcVariant,
  currencyDigits,
  dimensionsSettingsIssues,
  lineUnitPrice,
  onlineStoreIssues,
  type PricingMode,
  readVariantMeasurementConfig,
  sameScaled,
  toScaled,
  validateSvcData,
  type VariantMeasurementConfig,
} from '@tare/contracts';

/** The function's input, as `cart_transform_run.graphql` asks for it. */
export interface CartTransformRunInput {
  shop?: { metafield?: { value: string } | null } | null;
  cart: { lines: CartTransformLine[] };
}

export interface CartTransformLine {
  id: string;
  quantity: number;
  attribute?: { value?: string | null } | null;
  cost: { amountPerQuantity: { amount: string; currencyCode: string } };
  merchandise: { __typename?: string; id?: string; metafield?: { value: string } | null };
}

/** `CartTransformRunResult` of the schema, with the one operation Tare uses. */
export interface CartTransformRunResult {
  operations: LineUpdate[];
}

export interface LineUpdate {
  lineUpdate: { cartLineId: string; price: { adjustment: { fixedPricePerUnit: { amount: string } } } };
}

export function cartTransformRun(input: CartTransformRunInput): CartTransformRunResult {
  const mode = pricingMode(input.shop?.metafield?.value);
  const configs = variantConfigs();
  const operations: LineUpdate[] = [];
  for (const line of input.cart.lines) {
    const amount = measuredLinePrice(line, mode, configs);
    if (amount !== undefined) {
      operations.push({
        lineUpdate: { cartLineId: line.id, price: { adjustment: { fixedPricePerUnit: { amount } } } },
      });
    }
  }
  return { operations };
}

/**
 * What one unit of the line's quantity is charged, as decimal text in the cart's currency, or
 * undefined when the line stays at Shopify's own price (not measured, not allowed, not bookable,
 * or already at that price).
 *
 * A preset's own price is in the metafield's currency and for a line of exactly its value: it
 * applies only in the function's pricing mode and when the cart is in that currency; otherwise
 * the measure is priced in proportion to Shopify's price, which is already in the cart's currency.
 * In base-unit mode the picker adds lines of one unit measurement each, which that leaves alone.
 * @example measuredLinePrice(line of 1.25 kg at 24.00 per kg, 'function', variantConfigs()) // '30.00'
 */
function measuredLinePrice(
  line: CartTransformLine,
  mode: PricingMode,
  configs: ReturnType<typeof variantConfigs>,
): string | undefined {
  const config = configs(line.merchandise.metafield?.value);
  if (!config) return undefined;
  const measure = allowedMeasure(line, config);
  if (measure === undefined) return undefined;
  const own = line.cost.amountPerQuantity;
  const presets = mode === 'function' && own.currencyCode === config.currency ? config.presets : undefined;
  try {
    const pricing = { price: own.amount, unitValue: config.unitMeasurement.value, presets };
    const price = lineUnitPrice(pricing, measure, currencyDigits(own.currencyCode));
    return sameScaled(toScaled(price), toScaled(own.amount)) ? undefined : price;
  } catch {
    return undefined; // a preset price or currency in the metafield that cannot be read
  }
}

/**
 * Reads a variant metafield into a configuration whose settings can be offered (else undefined),
 * once per distinct value: a cart's lines of one variant share it, and the function's
 * instruction budget is per cart (11 million).
 */
function variantConfigs(): (value: string | undefined) => VariantMeasurementConfig | undefined {
  const read = new Map<string | undefined, VariantMeasurementConfig | undefined>();
  return (value) => {
    if (!read.has(value)) {
      const config = readVariantMeasurementConfig(value);
      const usable =
        config && onlineStoreIssues(config).length === 0 && dimensionsSettingsIssues(config, config.type).length === 0;
      read.set(value, usable ? config : undefined);
    }
    return read.get(value);
  };
}

/** The line's measure when its `_svc_data` is valid, allowed by the rules and bookable. */
function allowedMeasure(line: CartTransformLine, config: VariantMeasurementConfig): number | undefined {
  const { unit, value: unitValue } = config.unitMeasurement;
  // The factors too (PRODUCT.md §19): a line whose area or volume they do not make is not measured.
  const svc = validateSvcData(line.attribute?.value ?? undefined, configSvcVariant(config));
  if (!svc.ok || svc.data.measurement.type !== config.type) return undefined;
  const measure = svc.data.measurement.dimensions[0].value;
  if (checkMeasurementRules(measure, { settings: { onlineStore: config } }).length > 0) return undefined;
  if (bookableMeasureIssue(measure, line.quantity, unitValue, unit) !== undefined) return undefined;
  return measure;
}

/** The shop metafield's pricing mode; `function` when it cannot be read (rules still apply). */
function pricingMode(shopConfig: string | undefined): PricingMode {
  try {
    return (JSON.parse(shopConfig ?? '{}') as { pricingMode?: unknown }).pricingMode === 'base_units'
      ? 'base_units'
      : 'function';
  } catch {
    return 'function';
  }
}
