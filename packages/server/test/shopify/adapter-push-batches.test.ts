/**
 * How a batch with a stale quantity is finished when Shopify applies all or nothing (its reference
 * leaves this open; the fake applies per quantity): a stub Shopify answering the whole input with
 * no adjustment group shows that the others are sent again under a derived key, and that a retry
 * of the batch replays every call with the same keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopifyAdmin } from '../../src/platform/shopify/admin-client.js';
import { rememberInventoryItems } from '../../src/platform/shopify/inventory-items.js';
import { type LevelPush, pushShopifyLevels } from '../../src/platform/shopify/levels.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';

interface Quantity {
  inventoryItemId: string;
  quantity: number;
  changeFromQuantity: number | null;
}

/** All or nothing, as a database transaction would: any stale quantity fails the whole input. */
function allOrNothingShopify(shown: Map<string, number>) {
  const keys: string[] = [];
  const answers = new Map<string, unknown>();
  const admin: ShopifyAdmin = {
    async request<T>(_document: string, variables?: Record<string, unknown>) {
      const key = variables!.idempotencyKey as string;
      keys.push(key);
      const replay = answers.get(key);
      if (replay) return { data: replay as T };
      const quantities = (variables!.input as { quantities: Quantity[] }).quantities;
      const userErrors = quantities.flatMap((q, i) =>
        q.changeFromQuantity !== null && shown.get(q.inventoryItemId) !== q.changeFromQuantity
          ? [
              {
                code: 'CHANGE_FROM_QUANTITY_STALE',
                field: ['input', 'quantities', String(i), 'changeFromQuantity'],
                message: 'stale',
              },
            ]
          : [],
      );
      if (userErrors.length === 0) for (const q of quantities) shown.set(q.inventoryItemId, q.quantity);
      const data = {
        inventorySetQuantities: { inventoryAdjustmentGroup: userErrors.length ? null : { id: 'g' }, userErrors },
      };
      answers.set(key, data);
      return { data: data as T };
    },
  };
  return { admin, keys };
}

describe.each(testDrivers({ citus: true }))('Shopify pushes of a batch with a stale level on %s', (driver) => {
  let db: Db;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it('when the whole input fails on one stale quantity, then the others are sent again and a retry replays each call', async () => {
    const { shopId } = await seedShop(db);
    await rememberInventoryItems(db, shopId, [
      { variantId: '2001', inventoryItemId: '9001' },
      { variantId: '2002', inventoryItemId: '9002' },
      { variantId: '2003', inventoryItemId: '9003' },
    ]);
    const item = (n: string) => `gid://shopify/InventoryItem/${n}`;
    const shown = new Map([
      [item('9001'), 7],
      [item('9002'), 12], // the merchant typed 12; Tare expects 10
      [item('9003'), 1],
    ]);
    const shopify = allOrNothingShopify(shown);
    const pushes: LevelPush[] = [
      { variantId: '2001', available: 6, expected: 7 },
      { variantId: '2002', available: 8, expected: 10 },
      { variantId: '2003', available: 0, expected: 1 },
    ].map((p) => ({ ...p, locationId: '70001', idempotencyKey: 'k', referenceDocumentUri: 'gid://tare/Test/1' }));

    const outcomes = await pushShopifyLevels(db, shopify.admin, shopId, pushes);
    expect(outcomes).toEqual([{ status: 'applied' }, { status: 'stale' }, { status: 'applied' }]);
    expect([...shown.values()]).toEqual([6, 12, 0]);
    expect(shopify.keys).toEqual(['k', 'k.0-2']);

    // The batch again (its answer was lost): the same calls, replayed, change nothing.
    expect(await pushShopifyLevels(db, shopify.admin, shopId, pushes)).toEqual(outcomes);
    expect(shopify.keys).toEqual(['k', 'k.0-2', 'k', 'k.0-2']);
    expect([...shown.values()]).toEqual([6, 12, 0]);
  });
});
