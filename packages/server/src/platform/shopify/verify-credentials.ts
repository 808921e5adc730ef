import {
  createShopifyAdmin,
  ShopifyRequestError,
  ShopifyThrottledError,
  ShopifyUnauthorizedError,
  ShopifyUnavailableError,
} from './admin-client.js';
import type { ShopifyConnection } from './connection.js';

/** The values a connection is checked with, before it is saved. */
export type CredentialsToVerify = Pick<ShopifyConnection, 'store' | 'apiVersion' | 'accessToken' | 'endpoint'>;

/** The credentials do not work: `reason` says what failed, in words an operator can act on. */
export class ShopifyCredentialsError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ShopifyCredentialsError';
  }
}

// The cheapest read there is (1 point): any token of the store may read its shop, whatever its
// scopes. https://shopify.dev/docs/api/admin-graphql/2026-04/queries/shop
const SHOP = `query VerifyConnection { shop { id name myshopifyDomain } }`;

/** A person waits on the answer: far less than the sync's 30 s. */
const VERIFY_TIMEOUT_MS = 10_000;

/**
 * Checks a store's credentials with one read of its shop, and returns the shop's name. Throws
 * ShopifyCredentialsError naming what failed: the token refused (401/403), no such store or API
 * version (404), the store frozen or locked (402/423), Shopify out of reach, throttled or down,
 * or a token that belongs to another store. Status codes:
 * https://shopify.dev/docs/api/usage/response-codes
 */
export async function verifyShopifyCredentials(
  credentials: CredentialsToVerify,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<{ shopName: string }> {
  const admin = createShopifyAdmin(credentials, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? VERIFY_TIMEOUT_MS,
  });
  let shop: { name: string; myshopifyDomain: string };
  try {
    ({
      data: { shop },
    } = await admin.request<{ shop: { name: string; myshopifyDomain: string } }>(SHOP));
  } catch (error) {
    throw new ShopifyCredentialsError(reasonOf(error, credentials));
  }
  if (shop.myshopifyDomain.toLowerCase() !== credentials.store.toLowerCase()) {
    throw new ShopifyCredentialsError(
      `the access token is ${shop.myshopifyDomain}'s, not ${credentials.store}'s: give the token of ${credentials.store}'s app`,
    );
  }
  return { shopName: shop.name };
}

function reasonOf(error: unknown, { store, apiVersion, endpoint }: CredentialsToVerify): string {
  const status = statusOf(error);
  if (error instanceof ShopifyUnauthorizedError) {
    return status === 401
      ? `Shopify refused the access token (HTTP 401): it is not a valid Admin API token of ${store}, or it was revoked`
      : `Shopify refused access${status ? ` (HTTP ${status})` : ''}: ${error.message}`;
  }
  if (error instanceof ShopifyThrottledError) {
    return `Shopify throttled the check; try again in ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s`;
  }
  if (status === 404) {
    const version = /\/admin\/api\/([^/]+)\//.exec(endpoint)?.[1] ?? apiVersion;
    return `${endpoint} answered HTTP 404: there is no store ${store}, or Shopify does not serve Admin API version ${version}`;
  }
  if (status === 402) return `${store} is frozen (HTTP 402): its owner must pay Shopify's bill first`;
  if (status === 423) return `${store} is locked by Shopify (HTTP 423)`;
  if (error instanceof ShopifyUnavailableError) {
    return status === undefined
      ? `could not reach ${endpoint}: ${error.message.replace(/^Shopify could not be reached: /, '')}`
      : `Shopify could not answer now (HTTP ${status}); try again later`;
  }
  if (error instanceof ShopifyRequestError) return `Shopify refused the check: ${error.message}`;
  throw error;
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof ShopifyRequestError) return error.details.status;
  if (error instanceof ShopifyUnauthorizedError || error instanceof ShopifyUnavailableError) return error.status;
  return undefined;
}
