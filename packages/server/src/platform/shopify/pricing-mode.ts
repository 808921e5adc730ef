import type { PricingMode } from '@tare/contracts';
import type { ShopifyAdmin } from './admin-client.js';
import { CART_TRANSFORM_ELIGIBILITY } from './operations.js';

interface Eligibility {
  shop: { features: { cartTransform: { eligibleOperations: { updateOperation: boolean } } } };
}

/**
 * How the shop's checkout can charge a measured line (PRODUCT.md §18): `function` when the Cart
 * Transform function may update a line's price (`updateOperation`, Plus and development stores),
 * else `base_units`.
 */
export async function readShopifyPricingMode(admin: ShopifyAdmin): Promise<PricingMode> {
  const { data } = await admin.request<Eligibility>(CART_TRANSFORM_ELIGIBILITY);
  return data.shop.features.cartTransform.eligibleOperations.updateOperation ? 'function' : 'base_units';
}
