import type { DimensionSetting, PricingMode } from '@tare/contracts';
import type { MeasurementType } from '../../domain/units.js';
import type { CheckoutPricing } from '../../platform/shopify/connection.js';
import type { Queryable } from '../db.js';
import type { VariantPreset, VariantRules } from './catalog.js';

/** A variant with what its storefront metafield holds (PRODUCT.md §18). */
export interface StorefrontVariant {
  id: string;
  productId: string;
  measurementType: MeasurementType;
  unit: string;
  /** unitMeasurement.value: exact decimal text. */
  unitValue: string;
  price: string;
  displayStyle: 'number' | 'pills' | 'dropdown';
  rules: VariantRules | null;
  presets: VariantPreset[] | null;
  dimensions: DimensionSetting[] | null;
  /** Exact decimal text, or null. */
  overagePercent: string | null;
}

/** The shop's variants (all of them measured), or those of the given products. */
export async function listStorefrontVariants(
  db: Queryable,
  shopId: string,
  productIds?: string[],
): Promise<StorefrontVariant[]> {
  const { rows } = await db.query<{
    id: string;
    product_id: string;
    measurement_type: MeasurementType;
    unit: string;
    unit_value: string;
    price: string;
    display_style: StorefrontVariant['displayStyle'];
    rules: VariantRules | null;
    presets: VariantPreset[] | null;
    dimensions: DimensionSetting[] | null;
    overage_percent: string | null;
  }>(
    `SELECT v.id, v.product_id, p.measurement_type, v.unit, v.unit_value, v.price, v.display_style, v.rules, v.presets,
            v.dimensions, v.overage_percent
       FROM variants v JOIN products p ON p.shop_id = v.shop_id AND p.id = v.product_id
      WHERE v.shop_id = $1 AND ($2::text[] IS NULL OR v.product_id = ANY($2::text[]))
      ORDER BY v.id`,
    [shopId, productIds ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    productId: row.product_id,
    measurementType: row.measurement_type,
    unit: row.unit,
    unitValue: row.unit_value,
    price: row.price,
    displayStyle: row.display_style,
    rules: row.rules,
    presets: row.presets,
    dimensions: row.dimensions,
    overagePercent: row.overage_percent,
  }));
}

/** How the shop's checkout charges a measured line, as connect read it; undefined when never read. */
export async function shopifyPricingMode(db: Queryable, shopId: string): Promise<PricingMode | undefined> {
  return (await shopifyCheckoutPricing(db, shopId)).pricingMode;
}

/** Records how the shop's checkout charges measured lines, as connect settled it (with the function's registration). */
export async function recordPricingMode(db: Queryable, shopId: string, pricing: CheckoutPricing): Promise<void> {
  const { cartTransform } = pricing;
  await db.query(
    `UPDATE shopify_connections SET pricing_mode = $2, cart_transform_id = $3, cart_transform_problem = $4
      WHERE shop_id = $1`,
    [
      shopId,
      pricing.pricingMode,
      cartTransform?.registered ? cartTransform.id : null,
      cartTransform && !cartTransform.registered ? cartTransform.problem : null,
    ],
  );
}

/**
 * The shop's checkout pricing as connect left it, in one read: the pricing mode (undefined when
 * never read) and the Cart Transform function (null where there was nothing to register).
 */
export async function shopifyCheckoutPricing(
  db: Queryable,
  shopId: string,
): Promise<{ pricingMode: PricingMode | undefined; cartTransform: CheckoutPricing['cartTransform'] }> {
  const { rows } = await db.query<{
    pricing_mode: PricingMode | null;
    cart_transform_id: string | null;
    cart_transform_problem: string | null;
  }>('SELECT pricing_mode, cart_transform_id, cart_transform_problem FROM shopify_connections WHERE shop_id = $1', [
    shopId,
  ]);
  const row = rows[0];
  const cartTransform: CheckoutPricing['cartTransform'] = row?.cart_transform_id
    ? { registered: true, id: row.cart_transform_id }
    : row?.cart_transform_problem
      ? { registered: false, problem: row.cart_transform_problem }
      : null;
  return { pricingMode: row?.pricing_mode ?? undefined, cartTransform };
}
