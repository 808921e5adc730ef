import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { fannedOutDuring } from '../support/citus-plan.js';
import { testDrivers } from '../support/databases.js';
import { call } from '../support/harness.js';
import { recording, type Sent } from '../support/recording-db.js';
import { LOC, type ShopifyShop, startShopifyShop, svcData } from '../support/shopify-shop.js';

// A Shopify shop's writes on Citus touch the shop's one shard, as the embedded platform's do
// (citus-routing.test.ts): the stock push queued with each write, its lease and landing, and the
// webhooks (an order, a refund, a figure typed by the merchant) through the inbox to the ledger.
// What Citus's EXPLAIN says of each statement the server sent; Citus's planner, not PostgreSQL's.

const citus = testDrivers({ citus: true }).filter((driver) => driver.name === 'citus');

describe.skipIf(citus.length === 0)("A Shopify shop's statements routed to one shard on Citus", () => {
  let db: Db;
  let shop: ShopifyShop;
  const sent: Sent[] = [];

  beforeAll(async () => {
    db = await citus[0]!.create();
    shop = await startShopifyShop(recording(db, sent), { stock: { kg: 20.5, g: 900 } });
    // Another shop on the same Tare and cluster, so the shop under test is not alone.
    await shop.addShop({ stock: { kg: 3 } });
  });
  afterAll(async () => {
    await shop?.close();
    await db?.close();
  });

  /** The statements `work` sent, and then landing its pushes and events, that Citus plans on more than one shard. */
  const fannedOutBy = (work: () => Promise<unknown>) =>
    fannedOutDuring(db, sent, async () => {
      await work();
      // As the queued push's and the webhook's notifications wake the server: the shop named.
      await shop.fake.webhooks.settled();
      const { inbox, projection } = shop.server.services;
      await inbox.wake(shop.shopId);
      await projection.wake(shop.shopId);
      await shop.fake.webhooks.settled();
      await inbox.wake(shop.shopId);
    });

  const post = (path: string, idempotencyKey: string, body: unknown, method = 'POST') =>
    call(shop.server, path, {
      method,
      key: shop.apiKey,
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
    });

  it('when an adjustment moves whole units, then queueing, leasing and landing the push touch one shard', async () => {
    const wide = await fannedOutBy(async () => {
      const res = await post('/api/v1/inventory/adjustments', 'shopify-routing-1', {
        locationId: LOC,
        adjustments: [{ variantId: '2001', delta: { value: 1.5, unit: 'kg' } }],
      });
      expect(res.status).toBe(200);
    });
    expect(wide).toEqual([]);
    expect(await shop.total('2001')).toBe('22');
    expect(shop.shown('2001')).toBe(22);
  });

  it('when one adjustment moves several levels, then every statement touches one shard', async () => {
    const wide = await fannedOutBy(async () => {
      const res = await post('/api/v1/inventory/adjustments', 'shopify-routing-several', {
        locationId: LOC,
        adjustments: [
          { variantId: '2002', delta: { value: 250, unit: 'g' } },
          { variantId: '2001', delta: { value: -3.25, unit: 'kg' } },
        ],
      });
      expect(res.status).toBe(200);
    });
    expect(wide).toEqual([]);
    expect(shop.shown('2001')).toBe(18);
    expect(shop.shown('2002')).toBe(11);
  });

  it('when the levels are set (PUT), then every statement touches one shard', async () => {
    const wide = await fannedOutBy(async () => {
      const res = await post(
        '/api/v1/inventory/levels',
        'shopify-routing-put',
        { locationId: LOC, levels: [{ variantId: '2001', quantity: { value: 12.75, unit: 'kg' } }] },
        'PUT',
      );
      expect(res.status).toBe(200);
    });
    expect(wide).toEqual([]);
    expect(shop.shown('2001')).toBe(12);
  });

  let orderId = '';
  it('when a customer buys a measured line, then the webhook, its booking and the push touch one shard', async () => {
    const wide = await fannedOutBy(async () => {
      orderId = shop.fake.placeOrder({
        locationId: LOC,
        lines: [{ variantId: '2001', quantity: 2, customAttributes: svcData(1.25, 'kg') }],
      });
    });
    expect(wide).toEqual([]);
    expect(await shop.total('2001')).toBe('10.25');
    expect(shop.shown('2001')).toBe(10);
  });

  it('when a line is refunded with restock, then every statement touches one shard', async () => {
    const lineItemId = shop.fake.state.orders.get(orderId)!.lines[0]!.id;
    const wide = await fannedOutBy(async () => {
      shop.fake.refund(orderId, { lines: [{ lineItemId, quantity: 1, restockType: 'return' }] });
    });
    expect(wide).toEqual([]);
    expect(await shop.total('2001')).toBe('11.5');
    expect(shop.shown('2001')).toBe(11);
  });

  it('when the merchant types a stock figure, then every statement touches one shard', async () => {
    const wide = await fannedOutBy(async () => {
      shop.fake.merchantSetsStock(LOC, '2001', 7);
    });
    expect(wide).toEqual([]);
    expect(await shop.total('2001')).toBe('7.5');
    expect(shop.shown('2001')).toBe(7);
  });

  it('when an order is edited through the API, then the edit, its webhook and the push touch one shard', async () => {
    let edited = '';
    expect(
      await fannedOutBy(async () => {
        edited = shop.fake.placeOrder({
          locationId: LOC,
          lines: [{ variantId: '2001', quantity: 2, customAttributes: svcData(1.25, 'kg') }],
        });
      }),
    ).toEqual([]);
    expect(await shop.total('2001')).toBe('5');
    const order = await call(shop.server, `/api/v1/orders/${edited}`, { key: shop.apiKey });
    const lineItemId = order.body.data.items[0].lineItemId as string;
    const wide = await fannedOutBy(async () => {
      // One more of 1.25 kg: Shopify's order edit, committed, then booked.
      const res = await post(
        `/api/v1/orders/${edited}`,
        'shopify-routing-edit',
        { edits: [{ lineItemId, quantity: 3 }] },
        'PATCH',
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    expect(wide).toEqual([]);
    expect(shop.fake.state.orders.get(edited)!.lines[0]!.currentQuantity).toBe(3);
    expect(await shop.total('2001')).toBe('3.75');
    expect(shop.shown('2001')).toBe(3);
  });
});
