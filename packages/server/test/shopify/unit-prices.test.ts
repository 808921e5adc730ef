/**
 * Shopify's own unit price (PRODUCT.md §21): with unit pricing on, every measured variant carries
 * its `unitPriceMeasurement` (the quantity its price buys, per the shop's reference) and
 * `showUnitPrice`, written through the metafield outbox with one productVariantsBulkUpdate per
 * product; a unit Shopify's enums cannot state is hidden and reported, never approximated; a
 * failure is retried, a refusal waits for a newer document; turning unit pricing off hides it.
 */
import { readVariantMeasurementConfig } from '@tare/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePlatform } from '../../src/cli/platform-show.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { metafieldStats } from '../../src/store/repositories/metafield-outbox.js';
import { findShopByDomain } from '../../src/store/repositories/shops.js';
import { adminSession } from '../admin/support/admin-http.js';
import { staffWithPassword } from '../admin/support/admin-site.js';
import { testDrivers } from '../support/databases.js';
import { variantFixture } from '../support/harness.js';
import { type ShopifyShop, startShopifyShop } from '../support/shopify-shop.js';

const NS = '$app:tare';
type UnitPricing = NonNullable<NonNullable<ImportShop['settings']>['unitPricing']>;

describe.each(testDrivers())('Shopify unit prices on $name', ({ create }) => {
  let db: Db;
  let shop: ShopifyShop;
  beforeAll(async () => {
    db = await create();
    shop = await startShopifyShop(db, { stock: { kg: 5, g: 500 } });
    // Syrup by 12 fl oz and flour by the stone (a unit Shopify's enum lacks), on Shopify too.
    shop.fake.addProduct({ id: '1002', title: 'Syrup', variants: [{ id: '2101', title: '12 fl oz', price: '3.99' }] });
    shop.fake.addProduct({ id: '1003', title: 'Flour', variants: [{ id: '2301', title: '1 st', price: '9.00' }] });
  });
  afterAll(async () => {
    await shop?.close();
    await db?.close();
  });

  const bulkUpdates = () => shop.fake.calls.filter((c) => c.rootFields.includes('productVariantsBulkUpdate'));
  const variant = (id: string) => {
    const v = shop.fake.state.variants.get(id)!;
    return { showUnitPrice: v.showUnitPrice ?? false, unitPriceMeasurement: v.unitPriceMeasurement ?? null };
  };

  /** Imports the shop again with these unit pricing settings (and the two products above), as a settings save does. */
  async function saveUnitPricing(unitPricing: UnitPricing) {
    const changed = structuredClone(shop.importShop);
    for (const v of changed.products!.flatMap((p) => p.variants)) delete v.inventory;
    changed.products = [
      changed.products![0]!,
      {
        id: '1002',
        title: 'Syrup',
        measurementType: 'volume',
        variants: [{ ...variantFixture('2101', 'floz', 12), price: '3.99' }],
      },
      {
        id: '1003',
        title: 'Flour',
        measurementType: 'weight',
        variants: [{ ...variantFixture('2301', 'st', 1), price: '9.00' }],
      },
    ];
    changed.settings = { ...changed.settings, unitPricing };
    shop.importShop = changed;
    const checked = validateImport({ shops: [changed] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    await shop.server.services.importCatalog(checked.value);
  }

  it('when unit pricing is off, then no variant is touched on Shopify', () => {
    expect(bulkUpdates()).toEqual([]);
    expect(variant('2001')).toEqual({ showUnitPrice: false, unitPriceMeasurement: null });
  });

  it('when unit pricing is turned on, then every measured variant carries its measurement, one call per product', async () => {
    await saveUnitPricing({ enabled: true, reference: { volume: { value: 100, unit: 'ml' } } });
    await shop.settle();
    expect(variant('2001')).toEqual({
      showUnitPrice: true,
      unitPriceMeasurement: {
        measuredType: 'WEIGHT',
        quantityValue: 1,
        quantityUnit: 'KG',
        referenceValue: 1,
        referenceUnit: 'KG',
      },
    });
    expect(variant('2002')).toEqual({
      showUnitPrice: true,
      unitPriceMeasurement: {
        measuredType: 'WEIGHT',
        quantityValue: 100,
        quantityUnit: 'G',
        referenceValue: 1,
        referenceUnit: 'KG',
      },
    });
    expect(variant('2101')).toEqual({
      showUnitPrice: true,
      unitPriceMeasurement: {
        measuredType: 'VOLUME',
        quantityValue: 12,
        quantityUnit: 'FLOZ',
        referenceValue: 100,
        referenceUnit: 'ML',
      },
    });
    expect(
      bulkUpdates()
        .map((c) => c.variables.productId)
        .sort(),
    ).toEqual(['gid://shopify/Product/1001', 'gid://shopify/Product/1002', 'gid://shopify/Product/1003']);
    expect(bulkUpdates().every((c) => c.status === 'ok')).toBe(true);
    // The picker's document carries the same figure: 24.00 per 100 g is 240.00 per kg.
    expect(readVariantMeasurementConfig(shop.fake.metafield('2002', NS, 'measurement'))?.unitPrice).toEqual({
      amount: '240.00',
      currency: 'USD',
      reference: { value: 1, unit: 'kg' },
    });
  });

  it('when a unit has no Shopify enum, then its unit price is hidden, not approximated, and reported', async () => {
    expect(variant('2301')).toEqual({ showUnitPrice: false, unitPriceMeasurement: null });
    const report = await describePlatform({ db, keyring: shop.keyring }, (await findShopByDomain(db, shop.domain))!);
    expect(report.unitPriceIssues).toEqual([
      { variantId: '2301', productId: '1003', unit: 'st', problem: 'Shopify has no unit price unit for st' },
    ]);
    const staff = await staffWithPassword(db, shop.domain);
    const admin = await adminSession(shop.server, staff.email, staff.password);
    expect((await admin.get('/admin/settings')).text).toContain(
      'Variant 2301 (product 1003, unit st): Shopify has no unit price unit for st',
    );
    const connected = await shop.connect();
    expect(connected.code).toBe(0);
    expect(connected.err).toContain(
      'warning: unit price not written for variant 2301 (product 1003, unit st): Shopify has no unit price unit for st',
    );
    await shop.settle();
    // Connect writes every product again; the measurements are as they were.
    expect(variant('2002').unitPriceMeasurement?.quantityUnit).toBe('G');
  });

  it('when a variant price changes on Shopify, then nothing is written: Shopify divides its own price', async () => {
    const before = bulkUpdates().length;
    shop.fake.updateProduct('1001', { variants: [{ id: '2002', price: '2.75' }] });
    await shop.settle();
    expect(bulkUpdates().length).toBe(before);
  });

  it('when the write fails, then it is retried and lands; when the reference changes, then the products are written again', async () => {
    shop.fake.faults.serverErrors(1);
    await saveUnitPricing({
      enabled: true,
      reference: { weight: { value: 100, unit: 'g' }, volume: { value: 100, unit: 'ml' } },
    });
    await shop.server.services.metafields.drainNow();
    expect(await metafieldStats(db, shop.shopId)).toMatchObject({
      failed: 0,
      lastError: expect.stringMatching(/HTTP 503/),
    });
    await shop.settle();
    expect(variant('2001').unitPriceMeasurement).toMatchObject({ referenceValue: 100, referenceUnit: 'G' });
    expect(variant('2002').unitPriceMeasurement).toMatchObject({
      quantityValue: 100,
      referenceValue: 100,
      referenceUnit: 'G',
    });
    expect(await metafieldStats(db, shop.shopId)).toEqual({ pending: 0, failed: 0, lastError: null });
  });

  it('when Shopify refuses a product’s update, then it is counted failed with Shopify’s words until a newer one replaces it', async () => {
    shop.fake.faults.refuseVariantUpdates(1, 'INVALID_INPUT', 'Unit price measurement is invalid.');
    await saveUnitPricing({ enabled: true, reference: { volume: { value: 1, unit: 'L' } } });
    await shop.settle();
    const stats = await metafieldStats(db, shop.shopId);
    expect(stats).toMatchObject({ pending: 0, failed: 1 });
    expect(stats.lastError).toBe('INVALID_INPUT: Unit price measurement is invalid. (variants.0)');
    expect(variant('2001').unitPriceMeasurement).toMatchObject({ referenceValue: 100, referenceUnit: 'G' });
    // The refused product (the coffee, the first sent) gets a newer document: per pound.
    await saveUnitPricing({
      enabled: true,
      reference: { weight: { value: 1, unit: 'lb' }, volume: { value: 10, unit: 'cl' } },
    });
    await shop.settle();
    expect(await metafieldStats(db, shop.shopId)).toEqual({ pending: 0, failed: 0, lastError: null });
    expect(variant('2001').unitPriceMeasurement).toMatchObject({ referenceValue: 1, referenceUnit: 'LB' });
    expect(variant('2101').unitPriceMeasurement).toMatchObject({ referenceValue: 10, referenceUnit: 'CL' });
  });

  it('when unit pricing is turned off, then Shopify hides the unit prices it was given', async () => {
    await saveUnitPricing({ enabled: false });
    await shop.settle();
    for (const id of ['2001', '2002', '2101', '2301']) expect(variant(id).showUnitPrice).toBe(false);
    expect(readVariantMeasurementConfig(shop.fake.metafield('2002', NS, 'measurement'))?.unitPrice).toBeUndefined();
    const report = await describePlatform({ db, keyring: shop.keyring }, (await findShopByDomain(db, shop.domain))!);
    expect(report.unitPriceIssues).toEqual([]);
  });
});
