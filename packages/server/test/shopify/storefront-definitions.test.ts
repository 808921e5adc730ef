/**
 * The storefront metafields' definitions (PRODUCT.md §18): an app-owned metafield is unreadable
 * by the theme block until its definition grants storefront access PUBLIC_READ, and the app's TOML
 * cannot define `$app:tare`, so `tare platform connect` defines `$app:tare.measurement` (variants)
 * and `$app:tare.labels` (the shop) through the Admin API, before the metafields are queued:
 * idempotent, granting access to a definition that lacks it, warning (and still connecting) when
 * Shopify refuses, failing like its other reads when Shopify cannot be reached.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { loadShopifyConnection } from '../../src/store/repositories/shopify-connections.js';
import { findShopByDomain } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import type { FakeMetafieldDefinition } from '../support/fake-shopify/state.js';
import { type ShopifyShop, startShopifyShop } from '../support/shopify-shop.js';

const DEFINITION_CALLS = new Set([
  'StorefrontMetafieldDefinition',
  'CreateMetafieldDefinition',
  'UpdateMetafieldDefinition',
]);

describe.each(testDrivers())('the storefront metafield definitions at connect on $name', ({ create }) => {
  let db: Db;
  let shop: ShopifyShop;
  beforeAll(async () => {
    db = await create();
    shop = await startShopifyShop(db, { stock: { kg: 5 } });
  });
  afterAll(async () => {
    await shop?.close();
    await db?.close();
  });
  beforeEach(() => {
    // Each test starts from a store where the app has defined nothing.
    shop.fake.state.metafieldDefinitions.clear();
  });

  async function connect() {
    const from = shop.fake.calls.length;
    const { code, out, err } = await shop.connect();
    const calls = shop.fake.calls
      .slice(from)
      .map((c) => c.operationName!)
      .filter((name) => DEFINITION_CALLS.has(name));
    return { code, out, err, calls };
  }
  const definitions = () =>
    shop.fake
      .metafieldDefinitions()
      .map(({ ownerType, namespace, key, type, access }) => ({ ownerType, namespace, key, type, access }))
      .sort((a, b) => a.key.localeCompare(b.key));
  const readable = (ownerType: 'PRODUCTVARIANT' | 'SHOP', key: string) => ({
    ownerType,
    namespace: 'app--3141592--tare',
    key,
    type: 'json',
    access: { admin: 'MERCHANT_READ', storefront: 'PUBLIC_READ' as const, customerAccount: 'NONE' },
  });

  it('when the store has no definitions, then connect creates both once, readable by the storefront, and a second connect changes nothing', async () => {
    await shop.settle();
    // Written but not defined: Shopify holds the values, the storefront cannot read them.
    expect(shop.fake.metafield('2001', '$app:tare', 'measurement')).toBeDefined();
    expect(shop.fake.storefrontMetafield('2001', '$app:tare', 'measurement')).toBeUndefined();

    const first = await connect();
    expect(first.code).toBe(0);
    expect(first.err).toEqual([]);
    expect(first.calls).toEqual([
      'StorefrontMetafieldDefinition',
      'CreateMetafieldDefinition',
      'StorefrontMetafieldDefinition',
      'CreateMetafieldDefinition',
    ]);
    expect(first.out).toContain('storefront metafield $app:tare.measurement: defined, readable by the storefront');
    expect(first.out).toContain('storefront metafield $app:tare.labels: defined, readable by the storefront');
    expect(definitions()).toEqual([readable('SHOP', 'labels'), readable('PRODUCTVARIANT', 'measurement')]);
    await shop.settle();
    expect(shop.fake.storefrontMetafield('2001', '$app:tare', 'measurement')).toMatchObject({ type: 'weight' });
    expect(shop.fake.storefrontMetafield('shop', '$app:tare', 'labels')).toMatchObject({ pricingMode: 'base_units' });

    const ids = shop.fake.metafieldDefinitions().map((d) => d.id);
    const second = await connect();
    expect(second.code).toBe(0);
    expect(second.calls).toEqual(['StorefrontMetafieldDefinition', 'StorefrontMetafieldDefinition']);
    expect(second.out).toContain('storefront metafield $app:tare.measurement: readable by the storefront');
    expect(shop.fake.metafieldDefinitions().map((d) => d.id)).toEqual(ids);
  });

  it('when a definition exists without storefront access, then connect grants it, keeping the definition', async () => {
    const existing: FakeMetafieldDefinition = {
      id: '880001',
      ...readable('PRODUCTVARIANT', 'measurement'),
      name: 'Made by an earlier version',
      description: null,
      access: { admin: 'MERCHANT_READ', storefront: 'NONE', customerAccount: 'NONE' },
    };
    shop.fake.state.metafieldDefinitions.set('PRODUCTVARIANT|app--3141592--tare|measurement', existing);

    const { code, err, out, calls } = await connect();
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(calls).toEqual([
      'StorefrontMetafieldDefinition',
      'UpdateMetafieldDefinition',
      'StorefrontMetafieldDefinition',
      'CreateMetafieldDefinition',
    ]);
    expect(out).toContain(
      'storefront metafield $app:tare.measurement: readable by the storefront from now on (its definition had no storefront access)',
    );
    expect(shop.fake.state.metafieldDefinition('PRODUCTVARIANT', '$app:tare', 'measurement')).toMatchObject({
      id: '880001',
      name: 'Made by an earlier version',
      access: { storefront: 'PUBLIC_READ' },
    });
  });

  it('when another connect defines it between the look-up and the create, then TAKEN counts as defined', async () => {
    shop.fake.faults.onNextMetafieldDefinitionCreate(() => {
      shop.fake.state.metafieldDefinitions.set('PRODUCTVARIANT|app--3141592--tare|measurement', {
        id: '880002',
        ...readable('PRODUCTVARIANT', 'measurement'),
        name: 'Tare measurement',
        description: null,
      });
    });
    const { code, err, out } = await connect();
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out).toContain('storefront metafield $app:tare.measurement: readable by the storefront');
    expect(shop.fake.metafieldDefinitions().filter((d) => d.key === 'measurement')).toHaveLength(1);
  });

  it('when Shopify refuses a definition, then connect warns what the block cannot read, and still saves and queues the metafields', async () => {
    shop.fake.faults.refuseMetafieldDefinition('RESOURCE_TYPE_LIMIT_EXCEEDED', 'Too many definitions.');
    const { code, err, out } = await connect();
    expect(code).toBe(0);
    expect(err).toEqual([
      'warning: Shopify refused storefront access to $app:tare.measurement (RESOURCE_TYPE_LIMIT_EXCEEDED): Too many definitions.; ' +
        "the theme block cannot read any variant's measurement settings, so it shows no measure picker on any product page; " +
        'connect again once it is fixed',
    ]);
    expect(out).toContain('storefront metafield $app:tare.labels: defined, readable by the storefront');
    expect(out).toContain("storefront metafields: every measured variant's and the shop's are queued for Shopify");
    await shop.settle();
    expect(shop.fake.metafield('2001', '$app:tare', 'measurement')).toBeDefined();
    expect(shop.fake.storefrontMetafield('2001', '$app:tare', 'measurement')).toBeUndefined();
  });

  it('when Shopify cannot be reached while defining, then connect fails saying so and saves nothing', async () => {
    const shopId = (await findShopByDomain(db, shop.domain))!.id;
    const before = await loadShopifyConnection(db, shopId, shop.keyring);
    shop.fake.faults.loseAnswers(1, { operation: 'StorefrontMetafieldDefinition' });
    await expect(connect()).rejects.toThrow(
      /not connected to .*, nothing saved: could not define the storefront metafields/,
    );
    expect(await loadShopifyConnection(db, shopId, shop.keyring)).toEqual(before);
    expect(shop.fake.metafieldDefinitions()).toEqual([]);
  });
});
