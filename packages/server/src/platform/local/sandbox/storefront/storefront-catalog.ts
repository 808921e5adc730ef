import { type ShopStorefrontConfig, type VariantMeasurementConfig, variantMeasurementConfig } from '@tare/contracts';
import { resolveLabels, SUPPORTED_LOCALES } from '../../../../domain/labels.js';
import type { Queryable } from '../../../../store/db.js';
import { listEnabledUnits, listVariantsPage, type VariantRecord } from '../../../../store/repositories/catalog.js';
import { listLabelOverrides } from '../../../../store/repositories/labels.js';
import type { Shop } from '../../../../store/repositories/shops.js';

/** How many products the storefront's front page lists, and variants a product page offers. */
export const STOREFRONT_PAGE_SIZE = 100;

export interface StorefrontProduct {
  id: string;
  title: string;
}

/** The shop's products that have a variant to sell, by id (the storefront's front page). */
export async function listStorefrontProducts(db: Queryable, shopId: string): Promise<StorefrontProduct[]> {
  const { rows } = await db.query<StorefrontProduct>(
    `SELECT p.id, p.title FROM products p
     WHERE p.shop_id = $1 AND EXISTS (SELECT 1 FROM variants v WHERE v.shop_id = p.shop_id AND v.product_id = p.id)
     ORDER BY p.id LIMIT $2`,
    [shopId, STOREFRONT_PAGE_SIZE],
  );
  return rows;
}

/** A product's variants as the picker reads them: the variant metafield document of each. */
export async function storefrontVariants(
  db: Queryable,
  shop: Shop,
  product: { id: string; measurementType: VariantMeasurementConfig['type'] },
): Promise<{ id: string; title: string; config: VariantMeasurementConfig }[]> {
  const page = await listVariantsPage(db, shop.id, product.id, { direction: 'next', limit: STOREFRONT_PAGE_SIZE });
  return page.slice(0, STOREFRONT_PAGE_SIZE).map((variant) => ({
    id: variant.id,
    title: variant.title,
    config: variantMeasurementConfig(configured(variant, product.measurementType), shop.currency),
  }));
}

function configured(variant: VariantRecord, measurementType: VariantMeasurementConfig['type']) {
  return {
    measurementType,
    unitMeasurement: { unit: variant.unit, value: Number(variant.unitValue) },
    settings: {
      onlineStore: {
        displayStyle: variant.displayStyle,
        ...(variant.rules ? { rules: variant.rules } : {}),
        ...(variant.presets ? { presets: variant.presets } : {}),
      },
    },
    price: variant.price,
  };
}

/**
 * The shop document the picker reads (the shop metafield `$app:tare.labels` on Shopify): the
 * label set of every locale the shop has labels in (the built-in ones, its overrides, its
 * default), each resolved as app-settings resolves it. The sandbox charges the measured price
 * itself, so its pricing mode is the function's.
 */
export async function storefrontShopConfig(db: Queryable, shop: Shop): Promise<ShopStorefrontConfig> {
  const [enabled, overrides] = await Promise.all([listEnabledUnits(db, shop.id), listLabelOverrides(db, shop.id)]);
  const locales = new Set<string>([...SUPPORTED_LOCALES, ...Object.keys(overrides), shop.defaultLocale]);
  const labels: Record<string, Record<string, string>> = {};
  for (const locale of locales) {
    const resolved = resolveLabels({
      requestedLocale: locale,
      shopDefaultLocale: shop.defaultLocale,
      enabled,
      overrides,
    });
    labels[locale] = resolved.labels;
  }
  return { version: 1, defaultLocale: shop.defaultLocale, currency: shop.currency, pricingMode: 'function', labels };
}
