import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { InventoryWriter } from '../../src/services/inventory/write-inventory.js';
import type { Db } from '../../src/store/db.js';
import { call, seedShop, shopFixture, variantFixture } from './harness.js';
import { snapshot } from './inventory-state.js';

// Fixtures and requests shared by the suites of POST /inventory/adjustments and PUT /inventory/levels.

export type InventorySender = (
  server: RunningServer,
  key: string | undefined,
  payload: unknown,
  options?: { idempotencyKey?: string | null; contentType?: string; method?: string },
) => ReturnType<typeof call>;

/**
 * Sends to one inventory endpoint; `payload` is sent as is when it is a string. Each request gets
 * a fresh Idempotency-Key unless one is given; a null key sends no header.
 */
export function inventorySender(path: string, method: 'POST' | 'PUT'): InventorySender {
  return (server, key, payload, options = {}) => {
    const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
    const idempotencyKey = options.idempotencyKey === undefined ? randomUUID() : options.idempotencyKey;
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    return call(server, path, {
      key,
      method: options.method ?? method,
      headers,
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  };
}

/** One entry of the answer's `data.results`. */
export const result = (variantId: string, previous: number, value: number, unit: string) => ({
  variantId,
  status: 'updated',
  previousQuantity: { value: previous, unit },
  quantity: { value, unit },
});

/** A shop of the fixture with 100 kg variants 4001…4100 in product 3001. */
export function bulkShop() {
  return shopFixture({
    products: [
      {
        id: '3001',
        title: 'Bulk',
        measurementType: 'weight',
        variants: Array.from({ length: 100 }, (_, i) => variantFixture(String(4001 + i), 'kg', 1)),
      },
    ],
  });
}

/** Another shop whose only variant (5001) does not exist in the default fixture. */
export function otherShop() {
  return shopFixture({
    products: [{ id: '1501', title: 'Other', measurementType: 'weight', variants: [variantFixture('5001', 'kg', 1)] }],
  });
}

/**
 * Seeds a fixture shop, sends `payload` (5 kg of 2001, 500 g of 2002 and 2 lb of 2003) and
 * snapshots the shop's inventory state.
 */
export async function primedShop(db: Db, server: RunningServer, send: InventorySender, payload: unknown) {
  const shop = await seedShop(db, shopFixture());
  const res = await send(server, shop.key, payload);
  expect(res.status).toBe(200);
  const before = await snapshot(db, shop.shopId);
  expect(before.levels).toHaveLength(3);
  expect(before.ledger).toHaveLength(3);
  expect(before.platform).toHaveLength(3);
  expect(before.keys).toHaveLength(1);
  return { ...shop, before };
}

/**
 * A single-entry adjustment of variant 2001 at location 70001 by `kg`, sent to `write` directly
 * (no HTTP), under a fresh idempotency key unless one is given. The suites of the store's routing
 * and statements use it.
 */
export function adjustVariant2001(write: InventoryWriter, shopId: string, kg: number, key: string = randomUUID()) {
  return write(
    {
      shopId,
      operation: 'adjustment',
      locationId: '70001',
      requestId: `req-${key}`,
      actor: { type: 'api_key', id: 'store-test' },
      idempotency: { shopId, key, fingerprint: Buffer.from(`${kg}`), retentionHours: 24 },
      entries: [{ variantId: '2001', value: kg, unit: 'kg', path: '/adjustments/0', field: 'delta' }],
    },
    JSON.stringify,
  );
}
