/**
 * The storefront metafields of a shop on Shopify (PRODUCT.md §18): connecting writes every
 * measured variant's `$app:tare.measurement` and the shop's `$app:tare.labels`; a change made in
 * the admin (an import underneath) reaches its metafield and only its own; the pricing mode
 * follows the store's Cart Transform eligible operations; writes follow the stock outbox's rules
 * (Shopify down: they wait; a refused document: counted failed until a newer one).
 */
import { readVariantMeasurementConfig, type ShopStorefrontConfig } from '@tare/contracts';
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePlatform } from '../../src/cli/platform-show.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import { queueStorefrontMetafields } from '../../src/services/storefront/storefront-metafields.js';
import type { Db, Queryable } from '../../src/store/db.js';
import { metafieldStats } from '../../src/store/repositories/metafield-outbox.js';
import { findShopByDomain } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { type ShopifyShop, startShopifyShop } from '../support/shopify-shop.js';

const NS = '$app:tare';

describe.each(testDrivers())('storefront metafields on $name', ({ create }) => {
  let db: Db;
  let shop: ShopifyShop;
  beforeAll(async () => {
    db = await create();
    shop = await startShopifyShop(db, { stock: { kg: 5, g: 500 } });
  });
  afterAll(async () => {
    await shop?.close();
    await db?.close();
  });

  const metafieldCalls = () =>
    shop.fake.calls.filter((c) => c.rootFields.includes('metafieldsSet') && c.status === 'ok');
  const writtenOwners = (calls: typeof shop.fake.calls) =>
    calls.flatMap((c) => (c.variables.metafields as { ownerId: string; key: string }[]).map((m) => m.ownerId)).sort();

  /** Imports the shop again with one variant's rules changed, as the admin's product form does. */
  async function saveVariantRules(variantId: string, rules: { min: number; increment: number; defaultValue: number }) {
    const changed = structuredClone(shop.importShop);
    // Without stated stock: the save calls Shopify for nothing but the metafield.
    for (const v of changed.products!.flatMap((p) => p.variants)) delete v.inventory;
    const variant = changed.products!.flatMap((p) => p.variants).find((v) => v.id === variantId)!;
    variant.settings = { onlineStore: { displayStyle: 'number', rules: { ...rules, max: null } } };
    shop.importShop = changed;
    const checked = validateImport({ shops: [changed] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    await shop.server.services.importCatalog(checked.value);
  }

  it('when a shop connects, then every measured variant’s metafield and the shop’s labels are on Shopify', () => {
    const kg = readVariantMeasurementConfig(shop.fake.metafield('2001', NS, 'measurement'));
    expect(kg).toMatchObject({
      version: 1,
      type: 'weight',
      unitMeasurement: { unit: 'kg', value: 1 },
      currency: 'USD',
    });
    expect(kg?.price).toMatch(/^\d+(\.\d+)?$/);
    expect(readVariantMeasurementConfig(shop.fake.metafield('2002', NS, 'measurement'))).toMatchObject({
      unitMeasurement: { unit: 'g', value: 100 },
    });
    const labels = shop.fake.metafield('shop', NS, 'labels') as ShopStorefrontConfig;
    expect(labels).toMatchObject({ version: 1, defaultLocale: 'en', currency: 'USD', pricingMode: 'base_units' });
    expect(Object.keys(labels.labels)).toEqual(expect.arrayContaining(['de', 'en', 'es', 'fr']));
    expect(labels.labels.fr!.netWeight).toBe('Poids net');
    // The app's reserved namespace, as Shopify stores it.
    expect([...shop.fake.state.metafields.values()].every((m) => m.namespace === 'app--3141592--tare')).toBe(true);
  });

  it('when the admin changes one variant, then its metafield follows and nothing else is written', async () => {
    const before = metafieldCalls().length;
    await saveVariantRules('2001', { min: 0.2, increment: 0.1, defaultValue: 1 });
    await shop.settle();
    const calls = metafieldCalls().slice(before);
    expect(writtenOwners(calls)).toEqual(['gid://shopify/ProductVariant/2001']);
    expect(readVariantMeasurementConfig(shop.fake.metafield('2001', NS, 'measurement'))?.rules).toEqual({
      min: 0.2,
      increment: 0.1,
      defaultValue: 1,
      max: null,
    });
    // The same save again changes no document: nothing is sent.
    await saveVariantRules('2001', { min: 0.2, increment: 0.1, defaultValue: 1 });
    await shop.settle();
    expect(metafieldCalls().length).toBe(before + calls.length);
  });

  it('when Shopify is down, then the write waits, is reported pending, and lands once Shopify is back', async () => {
    shop.fake.faults.serverErrors(1);
    await saveVariantRules('2002', { min: 100, increment: 100, defaultValue: 200 });
    await shop.server.services.metafields.drainNow();
    const waiting = await metafieldStats(db, shop.shopId);
    expect(waiting).toMatchObject({ pending: 1, failed: 0, lastError: expect.stringMatching(/HTTP 503/) });
    await shop.settle();
    expect(await metafieldStats(db, shop.shopId)).toEqual({ pending: 0, failed: 0, lastError: null });
    expect(readVariantMeasurementConfig(shop.fake.metafield('2002', NS, 'measurement'))?.rules?.min).toBe(100);
  });

  it('when Shopify refuses a document, then it is counted failed with Shopify’s error, and a newer one replaces it', async () => {
    shop.fake.faults.refuseMetafields(1, 'INVALID_VALUE', 'Value is invalid for the definition.');
    await saveVariantRules('2001', { min: 0.5, increment: 0.5, defaultValue: 1 });
    await shop.settle();
    expect(await metafieldStats(db, shop.shopId)).toEqual({
      pending: 0,
      failed: 1,
      lastError: 'INVALID_VALUE: Value is invalid for the definition.',
    });
    const report = await describePlatform({ db, keyring: shop.keyring }, (await findShopByDomain(db, shop.domain))!);
    expect(report.metafields).toMatchObject({ pending: 0, failed: 1 });
    // Nothing of the refused document reached Shopify; the next change does.
    expect(readVariantMeasurementConfig(shop.fake.metafield('2001', NS, 'measurement'))?.rules?.min).toBe(0.2);
    await saveVariantRules('2001', { min: 0.75, increment: 0.25, defaultValue: 1 });
    await shop.settle();
    expect(await metafieldStats(db, shop.shopId)).toEqual({ pending: 0, failed: 0, lastError: null });
    expect(readVariantMeasurementConfig(shop.fake.metafield('2001', NS, 'measurement'))?.rules?.min).toBe(0.75);
  });

  it('when a product event queues a variant while an import changes it, then the import’s document is the one Shopify ends with', async () => {
    // The event's queueing reads the variant before the import commits and queues after it: held
    // just before its queueing statement, as a slow transaction would be.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reachedGate!: () => void;
    const atGate = new Promise<void>((resolve) => (reachedGate = resolve));
    const event = db.transaction((tx) => {
      const held: Queryable = {
        async query(sql, params) {
          if (sql.trimStart().startsWith('INSERT INTO metafield_outbox')) {
            reachedGate();
            await gate;
          }
          return tx.query(sql, params);
        },
      };
      return queueStorefrontMetafields(held, shop.shopId, { productIds: ['1001'] });
    });
    await Promise.race([atGate, event]);
    const saved = saveVariantRules('2001', { min: 1, increment: 0.5, defaultValue: 2 });
    // The import commits here unless it waits for the event's transaction.
    await Promise.race([saved, setTimeout(500)]);
    release();
    await Promise.all([event, saved]);
    await shop.settle();
    expect(readVariantMeasurementConfig(shop.fake.metafield('2001', NS, 'measurement'))?.rules).toMatchObject({
      min: 1,
      increment: 0.5,
      defaultValue: 2,
    });
  });

  it('when connect reads the eligible operations, then the pricing mode follows them into show and the shop metafield', async () => {
    const modeOf = async () =>
      (await describePlatform({ db, keyring: shop.keyring }, (await findShopByDomain(db, shop.domain))!)).shopify
        ?.pricingMode;

    shop.fake.setCartTransformEligibility({ updateOperation: true });
    const before = metafieldCalls().length;
    const first = await shop.connect();
    expect(first.code).toBe(0);
    expect(first.out).toContain(
      'pricing mode: function (the Cart Transform function prices measured lines; the store may update lines)',
    );
    expect(await modeOf()).toBe('function');
    await shop.settle();
    expect((shop.fake.metafield('shop', NS, 'labels') as ShopStorefrontConfig).pricingMode).toBe('function');
    // Connecting writes every metafield anew, whatever was written before.
    expect(writtenOwners(metafieldCalls().slice(before))).toEqual([
      'gid://shopify/ProductVariant/2001',
      'gid://shopify/ProductVariant/2002',
      'gid://shopify/Shop/1',
    ]);

    shop.fake.setCartTransformEligibility({ updateOperation: false });
    expect((await shop.connect()).code).toBe(0);
    expect(await modeOf()).toBe('base_units');
    await shop.settle();
    expect((shop.fake.metafield('shop', NS, 'labels') as ShopStorefrontConfig).pricingMode).toBe('base_units');
  });
});
