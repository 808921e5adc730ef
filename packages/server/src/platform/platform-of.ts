import type { PlatformKind, Shop } from '../store/repositories/shops.js';

export type { PlatformKind };

/**
 * Which platform a shop sells on: `shopify` once connected (PRODUCT.md §16), else the embedded
 * `local` one. What depends on it (the routing gateway; the sandbox shop, which exists only for
 * `local` shops, §15) asks here, so that the rule lives in one place.
 */
export function platformOf(shop: Pick<Shop, 'platform'>): PlatformKind {
  return shop.platform;
}
