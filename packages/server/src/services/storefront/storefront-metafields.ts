import {
  type PricingMode,
  type ShopStorefrontConfig,
  type UnitPrice,
  unitPrice,
  unitPriceReference,
  type VariantMeasurementConfig,
  variantMeasurementConfig,
} from '@tare/contracts';
import { normalizeLocale, resolveLabels, SUPPORTED_LOCALES } from '../../domain/labels.js';
import type { Queryable } from '../../store/db.js';
import { listEnabledUnits } from '../../store/repositories/catalog.js';
import { listLabelOverrides } from '../../store/repositories/labels.js';
import {
  forgetShopMetafields,
  lockShopMetafields,
  type MetafieldDocument,
  queueMetafields,
} from '../../store/repositories/metafield-outbox.js';
import { findShopById, type Shop } from '../../store/repositories/shops.js';
import {
  listStorefrontVariants,
  shopifyPricingMode,
  type StorefrontVariant,
} from '../../store/repositories/storefront-config.js';
import { unitPriceDocuments } from './shopify-unit-prices.js';

/**
 * Queues, in the caller's transaction, the storefront metafields (PRODUCT.md §18) of a shop on
 * Shopify whose documents changed: each variant's `$app:tare.measurement` (of the given products
 * only, when named), the shop's `$app:tare.labels`, and each product's unit price measurements
 * (§21, see unitPriceDocuments). Documents equal to what is queued (or,
 * none queued, to what Shopify holds) are not queued again, so calling this after any change is
 * cheap on Shopify.
 * A shop not on Shopify has no metafields: nothing is queued. Returns how many were queued.
 */
export async function queueStorefrontMetafields(
  tx: Queryable,
  shopId: string,
  options: { productIds?: string[] } = {},
): Promise<number> {
  // Before anything is read: a concurrent import or event queues after this commits, from what it committed.
  await lockShopMetafields(tx, shopId);
  const shop = await findShopById(tx, shopId);
  if (shop?.platform !== 'shopify') return 0;
  const variants = await listStorefrontVariants(tx, shopId, options.productIds);
  const documents: MetafieldDocument[] = variants.map((variant) => ({
    ownerType: 'ProductVariant',
    ownerId: variant.id,
    document: variantDocument(variant, shop),
  }));
  documents.push({ ownerType: 'Shop', ownerId: '', document: await shopDocument(tx, shop) });
  documents.push(...(await unitPriceDocuments(tx, shop, variants)));
  return queueMetafields(tx, shopId, documents);
}

/** The shop connected (again, perhaps to another store): every metafield is queued, whatever was written before. */
export async function queueEveryStorefrontMetafield(tx: Queryable, shopId: string): Promise<number> {
  await lockShopMetafields(tx, shopId);
  await forgetShopMetafields(tx, shopId);
  return queueStorefrontMetafields(tx, shopId);
}

/**
 * A variant's `$app:tare.measurement` document; with the shop's unit pricing on (PRODUCT.md §21),
 * its price per the shop's reference and each preset's with a price of its own, as the API's
 * variant answers them (toApiVariant), so the picker shows the same figure.
 */
export function variantDocument(
  variant: StorefrontVariant,
  shop: Pick<Shop, 'currency' | 'unitPricing'>,
): VariantMeasurementConfig {
  const reference = unitPriceReference(shop.unitPricing, variant.measurementType);
  const priced = (price: string, value: number | string): { unitPrice?: UnitPrice } =>
    reference ? { unitPrice: unitPrice(price, { value, unit: variant.unit }, reference, shop.currency) } : {};
  return variantMeasurementConfig(
    {
      measurementType: variant.measurementType,
      unitMeasurement: { unit: variant.unit, value: Number(variant.unitValue) },
      settings: {
        onlineStore: {
          displayStyle: variant.displayStyle,
          ...(variant.rules ? { rules: variant.rules } : {}),
          ...(variant.presets
            ? {
                presets: variant.presets.map((preset) => ({
                  ...preset,
                  ...(preset.price === undefined ? {} : priced(preset.price, preset.value)),
                })),
              }
            : {}),
          ...(variant.dimensions ? { dimensions: variant.dimensions } : {}),
          ...(variant.overagePercent === null ? {} : { overagePercent: Number(variant.overagePercent) }),
        },
      },
      price: variant.price,
      ...priced(variant.price, variant.unitValue),
    },
    shop.currency,
  );
}

/** The shop's document with the pricing mode connect read (`base_units`, which works on every plan, until it was read). */
async function shopDocument(tx: Queryable, shop: Shop): Promise<ShopStorefrontConfig> {
  return shopStorefrontDocument(tx, shop, (await shopifyPricingMode(tx, shop.id)) ?? 'base_units');
}

/**
 * The shop's `$app:tare.labels` document: its labels in every locale a storefront may ask for
 * (the built-in ones, the shop's default and every locale it overrides), each resolved as app
 * settings resolve it, and how its checkout charges a measured line. The sandbox storefront
 * embeds the same document in its pages.
 */
export async function shopStorefrontDocument(
  tx: Queryable,
  shop: Shop,
  pricingMode: PricingMode,
): Promise<ShopStorefrontConfig> {
  // One after another: a transaction's connection runs one statement at a time.
  const enabled = await listEnabledUnits(tx, shop.id);
  const overrides = await listLabelOverrides(tx, shop.id);
  const locales = new Set<string>([...SUPPORTED_LOCALES, shop.defaultLocale]);
  for (const locale of Object.keys(overrides)) locales.add(normalizeLocale(locale) ?? locale);
  const labels: Record<string, Record<string, string>> = {};
  for (const locale of [...locales].sort()) {
    labels[locale] = resolveLabels({
      requestedLocale: locale,
      shopDefaultLocale: shop.defaultLocale,
      enabled,
      overrides,
      unitPricing: shop.unitPricing?.enabled === true,
    }).labels;
  }
  return { version: 1, defaultLocale: shop.defaultLocale, currency: shop.currency, pricingMode, labels };
}
