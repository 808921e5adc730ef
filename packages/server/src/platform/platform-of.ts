import type { Shop } from '../store/repositories/shops.js';

/** The platforms a shop can be connected to (PRODUCT.md §1). */
export type PlatformKind = 'local' | 'shopify';

/**
 * Which platform a shop sells on. Every shop is on the embedded `local` platform until shops
 * can be connected to Shopify (§16); what depends on it (the sandbox shop exists only for
 * `local` shops, §15) asks here, so that connecting a shop changes one place.
 */
export function platformOf(_shop: Shop): PlatformKind {
  return 'local';
}
