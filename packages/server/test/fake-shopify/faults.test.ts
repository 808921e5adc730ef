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

const setTo = (quantity: number, changeFromQuantity: number) => ({
  input: {
    name: 'available',
    reason: 'correction',
    quantities: [
      {
        inventoryItemId: `gid://shopify/InventoryItem/${fake.inventoryItemId('2001')}`,
        locationId: 'gid://shopify/Location/70001',
        quantity,
        changeFromQuantity,
      },
    ],
  },
  idempotencyKey: `set-${quantity}-from-${changeFromQuantity}`,
});

describe('injected faults', () => {
  it('when an answer is lost, then the write is applied but the client gets no answer; its retry replays', async () => {
    fake.faults.loseAnswers(1, { operation: 'inventorySetQuantities' });
    await expect(adminRequest(fake, SET_INVENTORY_QUANTITIES, setTo(6, 10))).rejects.toThrow();
    expect(fake.available('70001', '2001')).toBe(6);
    const retry = await adminRequest(fake, SET_INVENTORY_QUANTITIES, setTo(6, 10));
    expect(retry.body.data.inventorySetQuantities.userErrors).toEqual([]);
    expect(fake.available('70001', '2001')).toBe(6);
    expect(fake.calls.map((c) => c.status)).toEqual(['lost', 'ok']);
  });

  it('when a lost answer names another operation, then this one is answered', async () => {
    fake.faults.loseAnswers(1, { operation: 'orderEditCommit' });
    expect((await adminRequest(fake, SET_INVENTORY_QUANTITIES, setTo(6, 10))).status).toBe(200);
  });

  it('when server errors are injected, then that many requests get the status and nothing is applied', async () => {
    fake.faults.serverErrors(2, 502);
    expect((await adminRequest(fake, SET_INVENTORY_QUANTITIES, setTo(6, 10))).status).toBe(502);
    expect((await adminRequest(fake, SET_INVENTORY_QUANTITIES, setTo(6, 10))).status).toBe(502);
    expect(fake.available('70001', '2001')).toBe(10);
    expect((await adminRequest(fake, SET_INVENTORY_QUANTITIES, setTo(6, 10))).status).toBe(200);
    expect(fake.available('70001', '2001')).toBe(6);
  });

  it('when the token is revoked, then every request is 401 until a new token is given', async () => {
    fake.revokeToken();
    expect((await adminRequest(fake, SET_INVENTORY_QUANTITIES, setTo(6, 10))).status).toBe(401);
    fake.rotateToken('shpat_new');
    expect((await adminRequest(fake, SET_INVENTORY_QUANTITIES, setTo(6, 10))).status).toBe(200);
  });
});
