import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SET_INVENTORY_QUANTITIES } from '../../src/platform/shopify/operations.js';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { adminRequest } from '../support/fake-shopify/client.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';

let fake: FakeShopify;

beforeEach(async () => {
  fake = await startFakeShopify();
  addCoffeeShop(fake);
});

afterEach(async () => {
  await fake.close();
});

function quantity(variantId: string, quantity: number, changeFromQuantity: number | null) {
  return {
    inventoryItemId: `gid://shopify/InventoryItem/${fake.inventoryItemId(variantId)}`,
    locationId: 'gid://shopify/Location/70001',
    quantity,
    changeFromQuantity,
  };
}

function setQuantities(quantities: object[], idempotencyKey: string) {
  const input = { name: 'available', reason: 'correction', referenceDocumentUri: 'gid://tare/Test/1', quantities };
  return adminRequest(fake, SET_INVENTORY_QUANTITIES, { input, idempotencyKey });
}

describe('inventorySetQuantities compare-and-swap', () => {
  it('when changeFromQuantity matches, then the quantity is set and the change is reported', async () => {
    const { status, body } = await setQuantities([quantity('2001', 7, 10)], 'k1');
    expect(status).toBe(200);
    expect(body.data.inventorySetQuantities.userErrors).toEqual([]);
    expect(body.data.inventorySetQuantities.inventoryAdjustmentGroup.id).toMatch(
      /^gid:\/\/shopify\/InventoryAdjustmentGroup\/\d+$/,
    );
    expect(fake.available('70001', '2001')).toBe(7);
  });

  it('when one quantity is stale, then CHANGE_FROM_QUANTITY_STALE and none of the input is applied', async () => {
    const { body } = await setQuantities([quantity('2001', 7, 10), quantity('2002', 4, 9)], 'k2');
    expect(body.data.inventorySetQuantities.inventoryAdjustmentGroup).toBeNull();
    expect(body.data.inventorySetQuantities.userErrors).toEqual([
      {
        code: 'CHANGE_FROM_QUANTITY_STALE',
        field: ['input', 'quantities', '1', 'changeFromQuantity'],
        message: 'The changeFromQuantity value does not match persisted value.',
      },
    ]);
    expect([fake.available('70001', '2001'), fake.available('70001', '2002')]).toEqual([10, 10]);
  });

  it('when changeFromQuantity is null, then the check is skipped', async () => {
    await setQuantities([quantity('2001', 3, null)], 'k3');
    expect(fake.available('70001', '2001')).toBe(3);
  });

  it('when the merchant changes stock between the read and the write, then the write is stale', async () => {
    fake.faults.onNextInventoryWrite(() => fake.merchantSetsStock('70001', '2001', 12));
    const { body } = await setQuantities([quantity('2001', 7, 10)], 'k4');
    expect(body.data.inventorySetQuantities.userErrors[0].code).toBe('CHANGE_FROM_QUANTITY_STALE');
    expect(fake.available('70001', '2001')).toBe(12);
  });

  it('when changeFromQuantity is left out, then Shopify refuses it and the test is told', async () => {
    const { body } = await setQuantities([{ ...quantity('2001', 7, 10), changeFromQuantity: undefined }], 'k5');
    expect(body.data.inventorySetQuantities.userErrors[0].code).toBe('COMPARE_QUANTITY_REQUIRED');
    expect(fake.available('70001', '2001')).toBe(10);
    expect(() => fake.assertNoInvalidQueries()).toThrow(/changeFromQuantity/);
    fake.invalidQueries.length = 0;
  });
});

describe('inventorySetQuantities idempotency', () => {
  it('when the same key comes back with the same input, then the first answer is replayed and nothing is applied again', async () => {
    const first = await setQuantities([quantity('2001', 7, 10)], 'same-key');
    fake.merchantSetsStock('70001', '2001', 9);
    const replay = await setQuantities([quantity('2001', 7, 10)], 'same-key');
    expect(replay.body.data).toEqual(first.body.data);
    expect(fake.available('70001', '2001')).toBe(9);
  });

  it('when the same key comes with another input, then IDEMPOTENCY_KEY_PARAMETER_MISMATCH and nothing is applied', async () => {
    await setQuantities([quantity('2001', 7, 10)], 'reused');
    const { body } = await setQuantities([quantity('2001', 5, 7)], 'reused');
    expect(body.data.inventorySetQuantities.userErrors[0].code).toBe('IDEMPOTENCY_KEY_PARAMETER_MISMATCH');
    expect(fake.available('70001', '2001')).toBe(7);
  });

  it('when @idempotent is missing, then the mutation errors, nothing is applied and close() would throw', async () => {
    const document = SET_INVENTORY_QUANTITIES.replace(' @idempotent(key: $idempotencyKey)', '').replace(
      ', $idempotencyKey: String!',
      '',
    );
    const input = { name: 'available', reason: 'correction', quantities: [quantity('2001', 1, 10)] };
    const { status, body } = await adminRequest(fake, document, { input });
    expect(status).toBe(200);
    expect(body.data.inventorySetQuantities).toBeNull();
    expect(body.errors[0].message).toMatch(/@idempotent/);
    expect(fake.available('70001', '2001')).toBe(10);
    expect(() => fake.assertNoInvalidQueries()).toThrow(/@idempotent/);
    fake.invalidQueries.length = 0;
  });
});
