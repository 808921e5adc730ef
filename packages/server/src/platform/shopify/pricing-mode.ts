import type { PricingMode } from '@tare/contracts';
import type { ShopifyAdmin } from './admin-client.js';
import { registerCartTransform } from './cart-transform.js';
import type { CheckoutPricing } from './connection.js';
import { CART_TRANSFORM_ELIGIBILITY } from './operations.js';

interface Eligibility {
  shop: { features: { cartTransform: { eligibleOperations: { updateOperation: boolean } } } };
}

/**
 * How the shop's checkout can charge a measured line (PRODUCT.md §18): `function` when the Cart
 * Transform function may update a line's price (`updateOperation`, Plus and development stores),
 * else `base_units`.
 */
async function readShopifyPricingMode(admin: ShopifyAdmin): Promise<PricingMode> {
  const { data } = await admin.request<Eligibility>(CART_TRANSFORM_ELIGIBILITY);
  return data.shop.features.cartTransform.eligibleOperations.updateOperation ? 'function' : 'base_units';
}

/**
 * Reads the pricing mode and, where it is `function`, registers the Cart Transform function. A
 * store that may update lines but where the function cannot be registered (the app not deployed
 * yet) stays in `base_units`, which charges right on every plan, until a connect registers it.
 */
export async function settleShopifyPricing(admin: ShopifyAdmin): Promise<CheckoutPricing> {
  if ((await readShopifyPricingMode(admin)) === 'base_units') return { pricingMode: 'base_units', cartTransform: null };
  const registration = await registerCartTransform(admin);
  return registration.registered
    ? { pricingMode: 'function', cartTransform: { registered: true, id: registration.id } }
    : { pricingMode: 'base_units', cartTransform: { registered: false, problem: registration.problem } };
}
