import { errors } from '../errors.js';
import { createShopifyAdmin } from '../platform/shopify/admin-client.js';
import {
  type DefinitionOutcome,
  ensureStorefrontMetafieldDefinitions,
} from '../platform/shopify/metafield-definitions.js';
import { settleShopifyPricing } from '../platform/shopify/pricing-mode.js';
import { type CheckoutPricing, DEFAULT_SHOPIFY_API_VERSION, shopifyEndpoint } from '../platform/shopify/connection.js';
import { type CredentialsToVerify, verifyShopifyCredentials } from '../platform/shopify/verify-credentials.js';
import type { Keyring } from '../secrets/keyring.js';
import type { Queryable } from '../store/db.js';
import {
  type ShopifyConnectionInput,
  saveShopifyConnection,
  shopHoldingStore,
} from '../store/repositories/shopify-connections.js';
import { recordPricingMode } from '../store/repositories/storefront-config.js';
import { queueEveryStorefrontMetafield } from './storefront/storefront-metafields.js';

/** A store is its `name.myshopify.com` host, as Shopify names it in webhooks' shop-domain header. */
const STORE = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i;
/** Admin API versions are named by their release month. https://shopify.dev/docs/api/usage/versioning */
const API_VERSION = /^\d{4}-(0[1-9]|1[0-2])$/;

type Field = 'store' | 'accessToken' | 'clientSecret' | 'apiVersion' | 'adminApiUrl';

/**
 * What is wrong with a connection's values, field by field; empty when nothing is. The messages
 * never quote a secret.
 */
export function shopifyConnectionProblems(input: ShopifyConnectionInput): { field: Field; message: string }[] {
  const problems: { field: Field; message: string }[] = [];
  if (!STORE.test(input.store)) {
    problems.push({ field: 'store', message: `'${input.store}' is not a store host; give name.myshopify.com` });
  }
  for (const field of ['accessToken', 'clientSecret'] as const) {
    if (!input[field] || /\s/.test(input[field])) {
      problems.push({ field, message: 'must be the app’s value as Shopify shows it, without spaces' });
    }
  }
  if (input.apiVersion !== undefined && !API_VERSION.test(input.apiVersion)) {
    problems.push({ field: 'apiVersion', message: `'${input.apiVersion}' is not an API version; give YYYY-MM` });
  }
  if (input.adminApiUrl !== undefined && input.adminApiUrl !== null) {
    const problem = urlProblem(input.adminApiUrl);
    if (problem) problems.push({ field: 'adminApiUrl', message: problem });
  }
  return problems;
}

function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL; give http(s)://host/path';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  // It is shown back by `tare platform show`: credentials have their own, sealed, fields.
  if (url.username || url.password) return 'must not carry a user name or password';
  return undefined;
}

/**
 * Checks a connection's values with one read of the store's shop, before they are saved; throws
 * ShopifyCredentialsError saying what failed (the token, the store, the version, the network).
 */
export function verifyShopifyConnection(input: ShopifyConnectionInput): Promise<{ shopName: string }> {
  return verifyShopifyCredentials(credentialsOf(input));
}

/**
 * Connects a shop to its Shopify store in the caller's transaction (import, `tare platform
 * connect`). A store connects one shop: another shop's store is 400 naming that shop.
 * `verified`: the values were just checked (verifyShopifyConnection); otherwise the connection
 * is unverified until a call to Shopify succeeds.
 */
export async function connectShopToShopify(
  tx: Queryable,
  keyring: Keyring,
  shopId: string,
  input: ShopifyConnectionInput,
  options: { verified?: boolean; pricing?: CheckoutPricing } = {},
): Promise<{ changed: boolean }> {
  const holder = await shopHoldingStore(tx, input.store, shopId);
  if (holder) throw errors.badRequest(`The store ${input.store.toLowerCase()} is already connected to shop ${holder}.`);
  const saved = await saveShopifyConnection(tx, shopId, input, keyring, options);
  if (options.pricing) await recordPricingMode(tx, shopId, options.pricing);
  // New credentials may name another store, and an uninstall took the app's metafields with it:
  // connecting writes every storefront metafield anew (PRODUCT.md §18), as does `platform connect`.
  if (saved.changed || options.verified) await queueEveryStorefrontMetafield(tx, shopId);
  return saved;
}

/**
 * Reads, with the values being connected, how the shop's checkout can charge measured lines and
 * registers the Cart Transform function where it can (PRODUCT.md §18); throws the admin client's
 * errors.
 */
export function settleCheckoutPricingOf(input: ShopifyConnectionInput): Promise<CheckoutPricing> {
  return settleShopifyPricing(createShopifyAdmin(credentialsOf(input)));
}

/**
 * Gives, with the values being connected, the storefront metafields' definitions storefront access
 * PUBLIC_READ, so the theme block can read what Tare queues (PRODUCT.md §18); refusals come back
 * as outcomes, the admin client's errors are thrown.
 */
export function ensureStorefrontDefinitionsOf(input: ShopifyConnectionInput): Promise<DefinitionOutcome[]> {
  return ensureStorefrontMetafieldDefinitions(createShopifyAdmin(credentialsOf(input)));
}

/** The values being connected as they will be saved: the store lower-cased, the version and endpoint resolved. */
function credentialsOf(input: ShopifyConnectionInput): CredentialsToVerify {
  const store = input.store.trim().toLowerCase();
  const apiVersion = input.apiVersion ?? DEFAULT_SHOPIFY_API_VERSION;
  const endpoint = shopifyEndpoint(store, apiVersion, input.adminApiUrl);
  return { store, apiVersion, endpoint, accessToken: input.accessToken };
}
