import {
  type ShopifyUnitPriceEntry,
  type ShopifyUnitPriceIssue,
  shopifyUnitPriceEntries,
} from '../../domain/shopify-unit-price.js';
import type { Queryable } from '../../store/db.js';
import { type MetafieldDocument, productsWithUnitPriceEntries } from '../../store/repositories/metafield-outbox.js';
import type { Shop } from '../../store/repositories/shops.js';
import { listStorefrontVariants, type StorefrontVariant } from '../../store/repositories/storefront-config.js';

/** A product's outbox document: what one productVariantsBulkUpdate sets on its measured variants. */
export interface UnitPriceDocument {
  variants: ShopifyUnitPriceEntry[];
}

/**
 * The unit price documents (PRODUCT.md §21) of the products of `variants`, for the metafield
 * outbox: while unit pricing is on, every product with a measured variant; while it is off, only
 * those Shopify was given a unit price for, to hide it (a merchant's own unit prices on products
 * Tare never touched are left alone).
 */
export async function unitPriceDocuments(
  tx: Queryable,
  shop: Shop,
  variants: StorefrontVariant[],
): Promise<MetafieldDocument[]> {
  const on = shop.unitPricing?.enabled === true;
  const touched = on ? undefined : new Set(await productsWithUnitPriceEntries(tx, shop.id));
  const documents: MetafieldDocument[] = [];
  for (const [productId, ofProduct] of byProduct(variants)) {
    if (touched && !touched.has(productId)) continue;
    const { entries } = shopifyUnitPriceEntries(ofProduct, shop.unitPricing);
    if (entries.length === 0) continue;
    const document: UnitPriceDocument = { variants: entries };
    documents.push({ ownerType: 'Product', ownerId: productId, document });
  }
  return documents;
}

/**
 * The shop's measured variants whose unit price Shopify cannot state (a unit or reference its
 * enums lack, a reference that is no whole number): not written, hidden, and reported by
 * `tare platform show`, connect and the admin's settings. None while unit pricing is off.
 */
export async function shopifyUnitPriceIssues(db: Queryable, shop: Shop): Promise<ShopifyUnitPriceIssue[]> {
  if (shop.platform !== 'shopify' || shop.unitPricing?.enabled !== true) return [];
  const variants = await listStorefrontVariants(db, shop.id);
  return shopifyUnitPriceEntries(variants, shop.unitPricing).issues;
}

function byProduct(variants: StorefrontVariant[]): Map<string, StorefrontVariant[]> {
  const products = new Map<string, StorefrontVariant[]>();
  for (const variant of variants) {
    const list = products.get(variant.productId);
    if (list) list.push(variant);
    else products.set(variant.productId, [variant]);
  }
  return products;
}
