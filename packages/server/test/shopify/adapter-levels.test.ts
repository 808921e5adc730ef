/**
 * Shopify's whole units through the adapter, on the fake Shopify: read (unstocked reads 0),
 * written with compare-and-set and an idempotency key, a stale level told apart from the others
 * of its batch, and a retry after a lost answer applied once.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ShopifyThrottledError, ShopifyUnavailableError } from '../../src/platform/shopify/admin-client.js';
import { variantOfInventoryItem } from '../../src/platform/shopify/inventory-items.js';
import { type LevelPush, pushShopifyLevels, readShopifyLevels } from '../../src/platform/shopify/levels.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import type { FakeShopify } from '../support/fake-shopify/index.js';
import { GRAMS, KG, LOCATION, OTHER_LOCATION, shopOnFakeShopify } from './adapter-fixture.js';

const push = (over: Partial<LevelPush> & Pick<LevelPush, 'variantId' | 'available' | 'expected'>): LevelPush => ({
  locationId: LOCATION,
  idempotencyKey: 'tare-test-key-1',
  referenceDocumentUri: 'gid://tare/InventoryWrite/1',
  ...over,
});

describe.each(testDrivers())('Shopify levels through the adapter on %s', (driver) => {
  let db: Db;
  let fake: FakeShopify;
  let setup: Awaited<ReturnType<typeof shopOnFakeShopify>>;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    setup = await shopOnFakeShopify(db);
    fake = setup.fake;
  });
  afterEach(async () => {
    await fake.close();
  });

  it('when levels are read, then Shopify shows its available units, an unstocked level reads 0 and inventory items are cached', async () => {
    fake.setAvailable(LOCATION, KG, 7);
    fake.setAvailable(OTHER_LOCATION, GRAMS, 3);
    const levels = [
      { locationId: LOCATION, variantId: KG },
      { locationId: LOCATION, variantId: GRAMS },
      { locationId: OTHER_LOCATION, variantId: GRAMS },
    ];
    expect(await readShopifyLevels(db, setup.admin, setup.shopId, levels)).toEqual([
      { locationId: LOCATION, variantId: KG, available: 7 },
      { locationId: LOCATION, variantId: GRAMS, available: 0 },
      { locationId: OTHER_LOCATION, variantId: GRAMS, available: 3 },
    ]);
    expect(await variantOfInventoryItem(db, setup.shopId, fake.inventoryItemId(KG))).toBe(KG);

    const before = fake.calls.length;
    await readShopifyLevels(db, setup.admin, setup.shopId, levels.slice(0, 1));
    expect(fake.calls.slice(before).map((c) => c.operationName)).toEqual(['InventoryLevelsAtLocation']);
  });

  it('when Shopify shows the expected figure, then the push is applied with the key, reason and reference', async () => {
    fake.setAvailable(LOCATION, KG, 7);
    const outcomes = await pushShopifyLevels(db, setup.admin, setup.shopId, [
      push({ variantId: KG, available: 5, expected: 7 }),
    ]);
    expect(outcomes).toEqual([{ status: 'applied' }]);
    expect(fake.available(LOCATION, KG)).toBe(5);
    const write = fake.calls.find((c) => c.operationName === 'SetInventoryQuantities')!;
    expect(write.variables).toMatchObject({
      idempotencyKey: 'tare-test-key-1',
      input: { name: 'available', reason: 'correction', referenceDocumentUri: 'gid://tare/InventoryWrite/1' },
    });
  });

  it('when expected is null, then the level is written whatever Shopify shows (changeFromQuantity sent as null)', async () => {
    fake.setAvailable(LOCATION, KG, 9);
    expect(
      await pushShopifyLevels(db, setup.admin, setup.shopId, [push({ variantId: KG, available: 4, expected: null })]),
    ).toEqual([{ status: 'applied' }]);
    expect(fake.available(LOCATION, KG)).toBe(4);
    const write = fake.calls.find((c) => c.operationName === 'SetInventoryQuantities')!;
    expect((write.variables.input as { quantities: unknown[] }).quantities[0]).toHaveProperty(
      'changeFromQuantity',
      null,
    );
  });

  it('when the merchant changed one level of a batch before the write, then that one is stale, untouched, and the others applied', async () => {
    fake.setAvailable(LOCATION, KG, 7);
    fake.setAvailable(LOCATION, GRAMS, 10);
    fake.faults.onNextInventoryWrite(() => fake.merchantSetsStock(LOCATION, GRAMS, 12));
    const outcomes = await pushShopifyLevels(db, setup.admin, setup.shopId, [
      push({ variantId: KG, available: 6, expected: 7 }),
      push({ variantId: GRAMS, available: 8, expected: 10 }),
    ]);
    expect(outcomes).toEqual([{ status: 'applied' }, { status: 'stale' }]);
    expect(fake.available(LOCATION, KG)).toBe(6);
    expect(fake.available(LOCATION, GRAMS)).toBe(12);
  });

  it('when the answer to a push is lost and the push is retried with its key, then it is applied once', async () => {
    fake.setAvailable(LOCATION, KG, 7);
    const pushes = [push({ variantId: KG, available: 5, expected: 7 })];
    // Warm the inventory-item cache so the lost answer is the write's.
    await readShopifyLevels(db, setup.admin, setup.shopId, [{ locationId: LOCATION, variantId: KG }]);
    fake.faults.loseAnswers(1, { operation: 'inventorySetQuantities' });
    await expect(pushShopifyLevels(db, setup.admin, setup.shopId, pushes)).rejects.toThrow(ShopifyUnavailableError);
    expect(fake.available(LOCATION, KG)).toBe(5);

    // The merchant sells 1 meanwhile; the replayed write must not set 5 over it.
    fake.merchantSetsStock(LOCATION, KG, 4);
    expect(await pushShopifyLevels(db, setup.admin, setup.shopId, pushes)).toEqual([{ status: 'applied' }]);
    expect(fake.available(LOCATION, KG)).toBe(4);
  });

  it('when Shopify throttles the write, then the error carries the wait and nothing is applied', async () => {
    fake.setAvailable(LOCATION, KG, 7);
    await readShopifyLevels(db, setup.admin, setup.shopId, [{ locationId: LOCATION, variantId: KG }]);
    fake.faults.throttle(1);
    const error = await pushShopifyLevels(db, setup.admin, setup.shopId, [
      push({ variantId: KG, available: 5, expected: 7 }),
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyThrottledError);
    expect((error as ShopifyThrottledError).retryAfterMs).toBeGreaterThanOrEqual(0);
    expect(fake.available(LOCATION, KG)).toBe(7);
  });
});
