import { type MeasurementType, type UnitPricingSettings, unitPriceReference } from '@tare/contracts';

/**
 * Shopify's own unit price (PRODUCT.md §21): what a variant's `unitPriceMeasurement` must say so
 * that Shopify shows the price per the shop's reference, and which variants it cannot say it for.
 * The enum is UnitPriceMeasurementMeasuredUnit of Admin API 2026-04
 * (https://shopify.dev/docs/api/admin-graphql/2026-04/enums/UnitPriceMeasurementMeasuredUnit);
 * the input is UnitPriceMeasurementInput
 * (https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/UnitPriceMeasurementInput):
 * `quantityValue` a Float, `referenceValue` an Int. A Tare unit missing from the enum (t, st, km,
 * mi, dl, cup, imperial volumes, the areas but m² and ft²…) is not approximated: the variant is
 * reported and its unit price hidden.
 */
export const SHOPIFY_UNIT_PRICE_UNITS: Readonly<Record<string, string>> = Object.freeze({
  mg: 'MG',
  g: 'G',
  kg: 'KG',
  oz: 'OZ',
  lb: 'LB',
  mm: 'MM',
  cm: 'CM',
  m: 'M',
  in: 'IN',
  ft: 'FT',
  yd: 'YD',
  m2: 'M2',
  ft2: 'FT2',
  ml: 'ML',
  cl: 'CL',
  L: 'L',
  m3: 'M3',
  floz: 'FLOZ',
  pt: 'PT',
  qt: 'QT',
  gal: 'GAL',
});

/** UnitPriceMeasurementInput as Tare sends it. */
export interface ShopifyUnitPriceMeasurement {
  quantityValue: number;
  quantityUnit: string;
  referenceValue: number;
  referenceUnit: string;
}

/** One variant's entry of a productVariantsBulkUpdate: its unit price shown (with what it is per) or hidden. */
export interface ShopifyUnitPriceEntry {
  id: string;
  showUnitPrice: boolean;
  unitPriceMeasurement?: ShopifyUnitPriceMeasurement;
}

/** A measured variant whose unit price Shopify cannot state, and why in words. */
export interface ShopifyUnitPriceIssue {
  variantId: string;
  productId: string;
  unit: string;
  problem: string;
}

export interface UnitPricedVariant {
  id: string;
  productId: string;
  measurementType: MeasurementType;
  unit: string;
  /** unitMeasurement.value: exact decimal text. */
  unitValue: string;
}

const INT_MAX = 2_147_483_647;

/**
 * What Shopify should hold for the variant while unit pricing is on: its measurement (the
 * quantity its price buys, per the shop's reference of its type), or, where Shopify's enums or
 * number types cannot state it exactly, the problem. Undefined for a type without unit prices
 * (`time`) or with unit pricing off.
 */
export function shopifyUnitPriceOf(
  variant: UnitPricedVariant,
  settings: UnitPricingSettings | undefined,
): { measurement: ShopifyUnitPriceMeasurement } | { problem: string } | undefined {
  const reference = unitPriceReference(settings, variant.measurementType);
  if (!reference) return undefined;
  const quantityUnit = SHOPIFY_UNIT_PRICE_UNITS[variant.unit];
  if (!quantityUnit) return { problem: `Shopify has no unit price unit for ${variant.unit}` };
  const referenceUnit = SHOPIFY_UNIT_PRICE_UNITS[reference.unit];
  if (!referenceUnit) {
    return {
      problem: `Shopify has no unit price unit for the shop's ${variant.measurementType} reference ${reference.unit}`,
    };
  }
  if (!Number.isInteger(reference.value) || reference.value < 1 || reference.value > INT_MAX) {
    return { problem: `Shopify states a reference in whole numbers: ${reference.value} ${reference.unit} is not one` };
  }
  const quantityValue = Number(variant.unitValue);
  if (!sameNumber(variant.unitValue, quantityValue)) {
    return { problem: `Shopify cannot hold the measurement ${variant.unitValue} ${variant.unit} exactly` };
  }
  return { measurement: { quantityValue, quantityUnit, referenceValue: reference.value, referenceUnit } };
}

/** Whether the float reads back as the same decimal (1.500 and 1.5 are the same; 0.1000000000000000001 is not). */
function sameNumber(text: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const trimmed = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  const shown = value.toFixed(Math.min(20, (text.split('.')[1] ?? '').length));
  return trimmed(shown) === trimmed(text);
}

/**
 * The product's variants as productVariantsBulkUpdate should set them, and those Shopify cannot
 * state. On: each measured variant shows its measurement; one Shopify cannot state is hidden
 * (never approximated, so a unit price written before a unit change is not left standing) and
 * reported. Off: each is hidden.
 */
export function shopifyUnitPriceEntries(
  variants: UnitPricedVariant[],
  settings: UnitPricingSettings | undefined,
): { entries: ShopifyUnitPriceEntry[]; issues: ShopifyUnitPriceIssue[] } {
  const entries: ShopifyUnitPriceEntry[] = [];
  const issues: ShopifyUnitPriceIssue[] = [];
  for (const variant of variants) {
    if (variant.measurementType === 'time') continue;
    const shown = shopifyUnitPriceOf(variant, settings);
    if (shown && 'measurement' in shown) {
      entries.push({ id: variant.id, showUnitPrice: true, unitPriceMeasurement: shown.measurement });
      continue;
    }
    entries.push({ id: variant.id, showUnitPrice: false });
    if (shown)
      issues.push({ variantId: variant.id, productId: variant.productId, unit: variant.unit, problem: shown.problem });
  }
  return { entries, issues };
}
