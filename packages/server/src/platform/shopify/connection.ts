import type { PricingMode } from '@tare/contracts';

/** The Admin API version Tare is written against (PRODUCT.md §16); a connection may name another. */
export const DEFAULT_SHOPIFY_API_VERSION = '2026-04';

/** Whether the shop's sync runs: `uninstalled` and `unauthorized` stop it and keep the data. */
export type ShopifyConnectionStatus = 'active' | 'uninstalled' | 'unauthorized';

/**
 * How the shop's checkout charges measured lines, as connect settles it (PRODUCT.md §18):
 * `function` once the Cart Transform function is registered, else `base_units`. `cartTransform`
 * is null on a store that may not update lines (nothing to register), else the registered
 * CartTransform's id or why it could not be registered.
 */
export interface CheckoutPricing {
  pricingMode: PricingMode;
  cartTransform: { registered: true; id: string } | { registered: false; problem: string } | null;
}

/** How Tare reaches one shop's Shopify store, secrets in clear (only ever held in memory). */
export interface ShopifyConnection {
  shopId: string;
  /** `name.myshopify.com`, as Shopify names it in `X-Shopify-Shop-Domain`. */
  store: string;
  apiVersion: string;
  /** The GraphQL endpoint: `adminApiUrl` when set (a proxy, a test double), else Shopify's own. */
  endpoint: string;
  accessToken: string;
  clientSecret: string;
  status: ShopifyConnectionStatus;
}

export function shopifyEndpoint(store: string, apiVersion: string, adminApiUrl?: string | null): string {
  return adminApiUrl ?? `https://${store}/admin/api/${apiVersion}/graphql.json`;
}
