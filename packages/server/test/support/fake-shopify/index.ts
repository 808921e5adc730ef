import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { buildSchema } from 'graphql';
import { createActions } from './actions.js';
import { LeakyBucket } from './bucket.js';
import { FaultPlan } from './faults.js';
import { inventoryLevelPayload } from './payloads.js';
import { type CallRecord, createFakeShopifyServer, type InvalidQuery } from './server.js';
import { gid } from './gid.js';
import { FakeStore } from './state.js';
import { SHOP_NUMBER } from './views.js';
import { type HeaderFamily, WebhookDispatcher, webhookSignature } from './webhooks.js';

/**
 * A fake Shopify Admin API for the tests: a real HTTP server on 127.0.0.1 (port 0) answering
 * GraphQL against a copy of Shopify's 2026-04 schema (schema.graphql), with Shopify's behaviours,
 * webhook deliveries and injectable faults. See README.md for the whole API.
 */
export interface FakeShopifyOptions {
  store?: string;
  accessToken?: string;
  clientSecret?: string;
  apiVersion?: string;
  currency?: 'USD' | 'EUR' | 'GBP' | 'CAD' | 'AUD' | 'CHF' | 'JPY';
  /** Points a second (standard plan: 100). */
  restoreRate?: number;
  /** Bucket size (standard plan: 2000). */
  maximumAvailable?: number;
  /** The fake's clock in ms (default Date.now): timestamps and the bucket's refill follow it. */
  now?: () => number;
  /** `every-change` (default, as Shopify): every move of `available` sends inventory_levels/update; `merchant-only`: only merchantSetsStock. */
  inventoryLevelWebhooks?: 'every-change' | 'merchant-only';
  /** Retries of a failed delivery (Shopify: 8 over 4 hours; here by default 5, 20 ms doubling). */
  webhookRetry?: { attempts: number; baseDelayMs: number };
  webhookHeaders?: HeaderFamily;
}

const schema = buildSchema(readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8'));

export async function startFakeShopify(options: FakeShopifyOptions = {}) {
  const now = options.now ?? Date.now;
  const apiVersion = options.apiVersion ?? '2026-04';
  const domain = options.store ?? 'tare-test.myshopify.com';
  let accessToken = options.accessToken ?? 'shpat_fake_access_token';
  const clientSecret = options.clientSecret ?? 'fake_client_secret';
  let revoked = false;
  const store = new FakeStore({ domain, name: domain.split('.')[0]!, currency: options.currency ?? 'USD' }, now);
  const shopId = store.nextId();
  const faults = new FaultPlan();
  const bucket = new LeakyBucket(options.maximumAvailable ?? 2000, options.restoreRate ?? 100, now);
  const webhooks = new WebhookDispatcher(store, {
    clientSecret: () => clientSecret,
    apiVersion,
    retry: options.webhookRetry ?? { attempts: 5, baseDelayMs: 20 },
    subscribedAddresses: (topic) =>
      [...store.webhookSubscriptions.values()]
        .filter((s) => s.topic === topic.toUpperCase().replace('/', '_'))
        .map((s) => s.uri),
  });
  webhooks.headerFamily = options.webhookHeaders ?? 'x-shopify';

  // Level webhooks: every change (as Shopify), or only the merchant's; setAvailable sends none.
  let levelWebhooks: 'all' | 'merchant' | 'none' = options.inventoryLevelWebhooks === 'merchant-only' ? 'none' : 'all';
  store.levelListener = (level) => {
    if (levelWebhooks !== 'none') webhooks.emit('inventory_levels/update', inventoryLevelPayload(level));
  };
  const withLevelWebhooks = (mode: typeof levelWebhooks, fn: () => void) => {
    const before = levelWebhooks;
    levelWebhooks = mode;
    try {
      fn();
    } finally {
      levelWebhooks = before;
    }
  };

  const calls: CallRecord[] = [];
  const invalidQueries: InvalidQuery[] = [];
  const server = createFakeShopifyServer({
    schema,
    store,
    faults,
    webhooks,
    bucket,
    apiVersion,
    accessToken: () => accessToken,
    tokenRevoked: () => revoked,
    calls,
    invalidQueries,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const actions = createActions(store, webhooks, {
    shopId,
    merchantStock: (fn) => withLevelWebhooks('merchant', fn),
    uninstalled: () => {
      revoked = true;
    },
  });

  /** A metafield's value as Shopify holds it (json parsed); `owner` a variant id or `'shop'`. */
  function metafieldValue(owner: string, namespace: string, key: string): unknown {
    const ownerId = owner === 'shop' ? gid('Shop', SHOP_NUMBER) : gid('ProductVariant', owner);
    const metafield = store.metafield(ownerId, namespace, key);
    if (!metafield) return undefined;
    return metafield.type === 'json' ? JSON.parse(metafield.value) : metafield.value;
  }

  const describeInvalid = () =>
    invalidQueries
      .map((q) => `- ${q.operationName ?? '(anonymous)'}: ${q.reasons.join('; ')}\n${q.query.trim()}`)
      .join('\n');

  return {
    adminApiUrl: `http://127.0.0.1:${port}/admin/api/${apiVersion}/graphql.json`,
    store: domain,
    apiVersion,
    get accessToken() {
      return accessToken;
    },
    clientSecret,
    schema,
    /** The fake's state, for assertions the helpers below do not cover. */
    state: store,

    addLocation(location: { id: string; name: string }) {
      store.locations.set(location.id, { ...location });
    },
    addProduct(product: {
      id: string;
      title: string;
      handle?: string;
      variants: { id: string; title: string; price: string; sku?: string; inventoryItemId?: string }[];
    }) {
      const at = now();
      store.products.set(product.id, {
        id: product.id,
        title: product.title,
        handle: product.handle ?? product.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        variantIds: product.variants.map((v) => v.id),
        createdAt: at,
        updatedAt: at,
      });
      for (const v of product.variants) {
        const inventoryItemId = v.inventoryItemId ?? store.nextId();
        store.variants.set(v.id, {
          ...v,
          sku: v.sku ?? null,
          productId: product.id,
          inventoryItemId,
          createdAt: at,
          updatedAt: at,
        });
      }
    },
    inventoryItemId(variantId: string): string {
      const variant = store.variants.get(variantId);
      if (!variant) throw new Error(`The fake Shopify has no variant ${variantId}`);
      return variant.inventoryItemId;
    },
    /** Stocks the variant at the location with `n` available, sending no webhook (set-up). */
    setAvailable(locationId: string, variantId: string, n: number) {
      const level = store.variantLevel(variantId, locationId);
      withLevelWebhooks('none', () => store.moveLevel(level, { available: n - level.available }));
    },
    /** Shopify's `available` for the variant at the location; undefined where it is not stocked. */
    available(locationId: string, variantId: string): number | undefined {
      const variant = store.variants.get(variantId);
      return variant ? store.level(variant.inventoryItemId, locationId)?.available : undefined;
    },
    ...actions,
    /** What `shop.features.cartTransform.eligibleOperations` answers from now on (a Plus store: `{ updateOperation: true }`). */
    setCartTransformEligibility(operations: Partial<FakeStore['cartTransform']>) {
      Object.assign(store.cartTransform, operations);
    },
    /**
     * The app's deployed functions by handle (`tare-cart-transform`, deployed by default): delete
     * one to play an app not deployed yet, or set one of another API.
     */
    deployedFunctions: store.deployedFunctions,
    /** The cart transforms the app registered on the shop (cartTransformCreate). */
    cartTransforms: () => [...store.cartTransforms.values()],
    /**
     * The value of a metafield as Shopify holds it (json parsed), or undefined; `owner` is a
     * variant id or `'shop'`, `namespace` as the app wrote it (`$app:tare`).
     */
    metafield: metafieldValue,
    /**
     * The metafield as the storefront reads it (a theme block's Liquid, the Storefront API): its
     * value only where a definition of its owner type, namespace and key grants storefront access
     * PUBLIC_READ (https://shopify.dev/docs/apps/build/custom-data/permissions), else undefined.
     */
    storefrontMetafield(owner: string, namespace: string, key: string): unknown {
      const definition = store.metafieldDefinition(owner === 'shop' ? 'SHOP' : 'PRODUCTVARIANT', namespace, key);
      if (definition?.access.storefront !== 'PUBLIC_READ') return undefined;
      return metafieldValue(owner, namespace, key);
    },
    /** The metafield definitions on the shop (metafieldDefinitionCreate), namespaces fully qualified. */
    metafieldDefinitions: () => [...store.metafieldDefinitions.values()],

    webhooks,
    /** Where every topic is delivered besides the subscriptions (also the compliance topics). */
    get webhookAddress() {
      return webhooks.address;
    },
    set webhookAddress(url: string | undefined) {
      webhooks.address = url;
    },
    sign: (body: string) => webhookSignature(body, clientSecret),

    faults: Object.assign(faults, {
      emptyBucket: () => bucket.empty(),
    }),
    revokeToken() {
      revoked = true;
    },
    /** A new token, valid from now on (the old one stops working). */
    rotateToken(token: string) {
      accessToken = token;
      revoked = false;
    },
    throttleStatus: () => bucket.status(),

    calls,
    invalidQueries,
    assertNoInvalidQueries() {
      if (invalidQueries.length > 0) {
        throw new Error(`The fake Shopify received queries Shopify would refuse:\n${describeInvalid()}`);
      }
    },
    /** Stops the server and deliveries; throws if any query Shopify would refuse was received. */
    async close() {
      await webhooks.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      if (invalidQueries.length > 0) {
        throw new Error(`The fake Shopify received queries Shopify would refuse:\n${describeInvalid()}`);
      }
    },
  };
}

export type FakeShopify = Awaited<ReturnType<typeof startFakeShopify>>;
export type { CallRecord, InvalidQuery } from './server.js';
export type { DeliveryRecord, HeaderFamily } from './webhooks.js';
export { webhookSignature } from './webhooks.js';
