/**
 * What a storefront reads without an API key (PRODUCT.md §18): the app-owned metafields Tare keeps
 * on a connected Shopify shop, and the same documents the sandbox storefront embeds in its pages.
 * One shape for the writer (the server), the Cart Transform function and `<tare-measure-picker>`.
 *
 * - Variant metafield `$app:tare` / `measurement` (type `json`): `VariantMeasurementConfig`.
 * - Shop metafield `$app:tare` / `labels` (type `json`): `ShopStorefrontConfig`.
 *
 * Plain data and plain functions, no dependency: they run in Node, browsers and a Shopify Function.
 */
import type { DimensionSetting, FactorsConfig } from './dimensions.js';
import type { MeasurementRules } from './measurement-rules.js';
import type { UnitPrice } from './unit-price.js';

/** Namespace of the app-owned metafields (`$app` is the app's reserved prefix on Shopify). */
export const METAFIELD_NAMESPACE = '$app:tare';
export const VARIANT_METAFIELD_KEY = 'measurement';
export const SHOP_METAFIELD_KEY = 'labels';

/**
 * How the checkout charges a measured line (§18): `function`, the Cart Transform function sets
 * the line's price (Shopify Plus and development stores: `lineUpdate` is eligible); `base_units`,
 * the variant is priced per its unit measurement and the picker adds measurement ÷ unit value
 * whole units, so Shopify charges and decrements exactly without a function.
 */
export type PricingMode = 'function' | 'base_units';

export interface VariantMeasurementConfig {
  /** Bumped only when a reader could misread a later shape. */
  version: 1;
  type: 'weight' | 'length' | 'area' | 'volume' | 'time';
  unitMeasurement: { unit: string; value: number };
  displayStyle: 'number' | 'pills' | 'dropdown';
  /** For `number`. */
  rules?: MeasurementRules;
  /**
   * For `pills` and `dropdown`; a preset's `price` is the price of a line of exactly its value,
   * and its `unitPrice` that price per the shop's reference.
   */
  presets?: { value: number; label?: string; price?: string; unitPrice?: UnitPrice }[];
  /** PRODUCT.md §19: the lengths an area or volume is made from (the picker asks each; a line carries them). */
  dimensions?: DimensionSetting[];
  /** 0–100, only with `dimensions`. */
  overagePercent?: number;
  /** The variant's price per unit measurement: decimal text in `currency` (`'24.00'`). */
  price: string;
  /** ISO 4217 code of the shop's currency. */
  currency: string;
  /**
   * The price per the shop's reference quantity (PRODUCT.md §21: €19.20 per 1 kg for €4.80 per
   * 250 g), present only while the shop has unit pricing on.
   */
  unitPrice?: UnitPrice;
}

export interface ShopStorefrontConfig {
  version: 1;
  defaultLocale: string;
  currency: string;
  pricingMode: PricingMode;
  /** Every locale's full label set (the app-settings `localizedLabels`), by locale tag. */
  labels: Record<string, Record<string, string>>;
}

/** A variant as the server keeps it, enough to write its metafield. */
export interface ConfiguredVariant {
  measurementType: VariantMeasurementConfig['type'];
  unitMeasurement: { unit: string; value: number };
  settings: {
    onlineStore: {
      displayStyle: VariantMeasurementConfig['displayStyle'];
      rules?: MeasurementRules;
      presets?: { value: number; label?: string; price?: string; unitPrice?: UnitPrice }[];
      dimensions?: readonly DimensionSetting[];
      overagePercent?: number;
    };
  };
  price: string;
  /** With the shop's unit pricing on (§21): the variant's price per the shop's reference. */
  unitPrice?: UnitPrice;
}

/**
 * The variant metafield's value for a configured variant. Only what the picker and the function
 * need, so that a change elsewhere in the catalog writes nothing (the writer compares documents).
 * @example variantMeasurementConfig({ measurementType: 'weight', unitMeasurement: { unit: 'kg', value: 1 },
 *   settings: { onlineStore: { displayStyle: 'number', rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null } } },
 *   price: '24.00' }, 'USD').price // '24.00'
 */
export function variantMeasurementConfig(variant: ConfiguredVariant, currency: string): VariantMeasurementConfig {
  const store = variant.settings.onlineStore;
  return {
    version: 1,
    type: variant.measurementType,
    unitMeasurement: { unit: variant.unitMeasurement.unit, value: variant.unitMeasurement.value },
    displayStyle: store.displayStyle,
    ...(store.displayStyle === 'number' && store.rules ? { rules: { ...store.rules } } : {}),
    ...(store.displayStyle !== 'number' && store.presets ? { presets: store.presets.map((p) => ({ ...p })) } : {}),
    ...(store.dimensions ? { dimensions: store.dimensions.map((d) => ({ ...d })) } : {}),
    ...(store.overagePercent === undefined ? {} : { overagePercent: store.overagePercent }),
    price: variant.price,
    currency,
    ...(variant.unitPrice ? { unitPrice: { ...variant.unitPrice } } : {}),
  };
}

/**
 * What a line of the configured variant is checked against (`validateSvcData`'s variant): its unit
 * and its factors (none: lines carry no entry after `dimensions[0]`).
 */
export function configSvcVariant(config: VariantMeasurementConfig): { unit: string; factors: FactorsConfig } {
  return {
    unit: config.unitMeasurement.unit,
    factors: {
      dimensions: config.dimensions ?? null,
      overagePercent: config.overagePercent ?? null,
      rules: config.rules ?? null,
    },
  };
}

/**
 * A metafield value read back (a storefront, the function): the document when it has the shape
 * above, else undefined. A reader never trusts a value it cannot read: the function then leaves
 * the line at the variant's own price, and the picker shows nothing measured.
 */
export function readVariantMeasurementConfig(value: unknown): VariantMeasurementConfig | undefined {
  const doc = typeof value === 'string' ? safeJson(value) : value;
  if (!isRecord(doc) || doc['version'] !== 1) return undefined;
  const um = doc['unitMeasurement'];
  const ok =
    typeof doc['type'] === 'string' &&
    isRecord(um) &&
    typeof um['unit'] === 'string' &&
    typeof um['value'] === 'number' &&
    um['value'] > 0 &&
    ['number', 'pills', 'dropdown'].includes(doc['displayStyle'] as string) &&
    typeof doc['price'] === 'string' &&
    typeof doc['currency'] === 'string';
  return ok ? (doc as unknown as VariantMeasurementConfig) : undefined;
}

/**
 * The shop metafield's value read back (the picker): the document when it has the shape above,
 * every label a string, else undefined.
 */
export function readShopStorefrontConfig(value: unknown): ShopStorefrontConfig | undefined {
  const doc = typeof value === 'string' ? safeJson(value) : value;
  if (!isRecord(doc) || doc['version'] !== 1) return undefined;
  const labels = doc['labels'];
  const ok =
    typeof doc['defaultLocale'] === 'string' &&
    typeof doc['currency'] === 'string' &&
    (doc['pricingMode'] === 'function' || doc['pricingMode'] === 'base_units') &&
    isRecord(labels) &&
    Object.values(labels).every((set) => isRecord(set) && Object.values(set).every((v) => typeof v === 'string'));
  return ok ? (doc as unknown as ShopStorefrontConfig) : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
