import { readShopStorefrontConfig, readVariantMeasurementConfig } from '@tare/contracts';
import type { MeasurementRules } from '../cart/rules.js';
import type { UnitPrice } from '../types.js';

/*
 * The documents the picker reads (PRODUCT.md §18): the variant metafield `$app:tare.measurement`
 * and the shop metafield `$app:tare.labels`, as `@tare/contracts` defines them
 * (storefront-config.ts). The types are repeated here because the published package carries no
 * types from the workspace; test/picker.test-d.ts checks they stay the same shape.
 */

export interface PickerVariantConfig {
  version: 1;
  type: 'weight' | 'length' | 'area' | 'volume' | 'time';
  unitMeasurement: { unit: string; value: number };
  displayStyle: 'number' | 'pills' | 'dropdown';
  rules?: MeasurementRules;
  presets?: { value: number; label?: string; price?: string; unitPrice?: UnitPrice }[];
  /** PRODUCT.md §19: the lengths an area or volume is made from; one input each (a fixed one shown). */
  dimensions?: { name: string; unit: string; rules?: MeasurementRules; fixed?: number }[];
  /** 0–100: extra sold for waste; only with `dimensions`. */
  overagePercent?: number;
  /** Price per unit measurement, decimal text in `currency`. */
  price: string;
  currency: string;
  /** The price per the shop's reference quantity (€19.20 per 1 kg), only while the shop shows unit prices. */
  unitPrice?: UnitPrice;
}

export type PricingMode = 'function' | 'base_units';

export interface PickerShopConfig {
  version: 1;
  defaultLocale: string;
  currency: string;
  pricingMode: PricingMode;
  labels: Record<string, Record<string, string>>;
}

/** The variant document (JSON text or parsed), or undefined when it cannot be read: no picker then. */
export function readVariantConfig(value: unknown): PickerVariantConfig | undefined {
  return readVariantMeasurementConfig(value);
}

/** The shop document (JSON text or parsed), or undefined when it does not have the shape above. */
export function readShopConfig(value: unknown): PickerShopConfig | undefined {
  return readShopStorefrontConfig(value);
}
