/**
 * shopify.app.toml (PRODUCT.md §18): its access scopes cover every operation Tare sends to the
 * Admin API and every webhook topic it subscribes, and its webhook topics are exactly those Tare
 * handles, compliance topics included, all pointing at POST /webhooks/shopify.
 */
import { readFileSync } from 'node:fs';
import { getOperationAST, parse as parseGraphql } from 'graphql';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import * as operations from '../../src/platform/shopify/operations.js';
import { FOLLOWED_TOPICS } from '../../src/platform/shopify/webhook-topics.js';

interface AppConfig {
  access_scopes: { scopes: string };
  webhooks: { api_version: string; subscriptions: { topics?: string[]; compliance_topics?: string[]; uri: string }[] };
}

const config = parseToml(
  readFileSync(new URL('../../../../shopify.app.toml', import.meta.url), 'utf8'),
) as unknown as AppConfig;
const scopes = new Set(config.access_scopes.scopes.split(',').map((s) => s.trim()));

/**
 * The scopes each operation of operations.ts needs (https://shopify.dev/docs/api/usage/access-scopes
 * and each reference page's "Requires … access scope"). A new operation must be added here.
 */
const OPERATION_SCOPES: Record<string, string[]> = {
  VariantInventoryItems: ['read_products', 'read_inventory'],
  InventoryLevelsAtLocation: ['read_inventory', 'read_locations'],
  SetInventoryQuantities: ['write_inventory'],
  ReadOrder: ['read_orders', 'read_merchant_managed_fulfillment_orders', 'read_assigned_fulfillment_orders'],
  // Level 2 protected customer data besides (name, e-mail): no scope, an approval Shopify may withhold.
  OrderCustomer: ['read_orders'],
  RefundLineItems: ['read_orders'],
  OrdersChangedSince: ['read_orders'],
  OrderEditBegin: ['write_order_edits'],
  OrderEditSetQuantity: ['write_order_edits'],
  OrderEditCommit: ['write_order_edits'],
  // App-owned metafields take their owner's scope: variants are products'; the shop needs none.
  SetMetafields: ['write_products'],
  ShopId: [],
  CartTransformEligibility: [],
  CartTransforms: ['read_cart_transforms'],
  CreateCartTransform: ['write_cart_transforms'],
  ProductVariantPrices: ['read_products'],
  UpdateVariantUnitPrices: ['write_products'],
  // Definitions take their owner type's scope, as its metafields do: variants are products'.
  StorefrontMetafieldDefinition: ['read_products'],
  CreateMetafieldDefinition: ['write_products'],
  UpdateMetafieldDefinition: ['write_products'],
};

/** https://shopify.dev/docs/api/webhooks/2026-04 (each topic's required scope). */
const TOPIC_SCOPES: Record<string, string[]> = {
  'orders/create': ['read_orders'],
  'orders/cancelled': ['read_orders'],
  'orders/edited': ['read_orders'],
  'refunds/create': ['read_orders'],
  'inventory_levels/update': ['read_inventory'],
  'products/update': ['read_products'],
};

describe('shopify.app.toml', () => {
  it('when Tare sends each of its Admin API operations, then the app holds the scopes it needs', () => {
    const names = Object.values(operations).map((document) => getOperationAST(parseGraphql(document))!.name!.value);
    expect(names.sort()).toEqual(Object.keys(OPERATION_SCOPES).sort());
    const missing = Object.entries(OPERATION_SCOPES).flatMap(([name, needed]) =>
      needed.filter((scope) => !scopes.has(scope)).map((scope) => `${name}: ${scope}`),
    );
    expect(missing).toEqual([]);
  });

  it('when Shopify delivers a topic, then the app holds its scope', () => {
    const missing = Object.entries(TOPIC_SCOPES).flatMap(([topic, needed]) =>
      needed.filter((scope) => !scopes.has(scope)).map((scope) => `${topic}: ${scope}`),
    );
    expect(missing).toEqual([]);
  });

  it('when its webhooks are read, then they are exactly the topics Tare handles, at /webhooks/shopify, on the pinned version', () => {
    const { subscriptions, api_version } = config.webhooks;
    const topics = subscriptions.flatMap((s) => [...(s.topics ?? []), ...(s.compliance_topics ?? [])]);
    expect(topics.sort()).toEqual([...FOLLOWED_TOPICS].sort());
    expect(new Set(topics).size).toBe(topics.length);
    expect(subscriptions.flatMap((s) => s.compliance_topics ?? []).sort()).toEqual([
      'customers/data_request',
      'customers/redact',
      'shop/redact',
    ]);
    for (const s of subscriptions) expect(new URL(s.uri).pathname).toBe('/webhooks/shopify');
    expect(api_version).toBe('2026-04');
  });
});
