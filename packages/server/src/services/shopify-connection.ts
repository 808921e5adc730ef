import { errors } from '../errors.js';
import type { Keyring } from '../secrets/keyring.js';
import type { Queryable } from '../store/db.js';
import {
  type ShopifyConnectionInput,
  saveShopifyConnection,
  shopHoldingStore,
} from '../store/repositories/shopify-connections.js';

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
 * Connects a shop to its Shopify store in the caller's transaction (import, `tare platform
 * connect`). A store connects one shop: another shop's store is 400 naming that shop.
 */
export async function connectShopToShopify(
  tx: Queryable,
  keyring: Keyring,
  shopId: string,
  input: ShopifyConnectionInput,
): Promise<{ changed: boolean }> {
  const holder = await shopHoldingStore(tx, input.store, shopId);
  if (holder) throw errors.badRequest(`The store ${input.store.toLowerCase()} is already connected to shop ${holder}.`);
  return saveShopifyConnection(tx, shopId, input, keyring);
}
