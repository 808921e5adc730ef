/**
 * The "done when", on the fake Shopify and both stores: a purchase carrying
 * `_svc_data`, a refund with restock, a cancel, a stock figure typed by the merchant and an
 * order edit through PATCH /orders each leave Tare's exact stock and Shopify's whole units right.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/services/events/reconcile.js';
import type { Db } from '../../src/store/db.js';
import { markConnectionFailed } from '../../src/store/repositories/shopify-connections.js';
import { testDrivers } from '../support/databases.js';
import { call } from '../support/harness.js';
import { LOC, type ShopifyShop, startShopifyShop, svcData } from '../support/shopify-shop.js';

describe.each(testDrivers({ citus: true }))('A Shopify shop followed by Tare on $name', (driver) => {
  let db: Db;
  let shop: ShopifyShop;
  beforeEach(async () => {
    db = await driver.create();
    shop = await startShopifyShop(db, { stock: { kg: 20.5 } });
  });
  afterEach(async () => {
    await shop?.close();
    await db?.close();
  });

  const buy = (quantity: number, kg: number) =>
    shop.fake.placeOrder({
      locationId: LOC,
      lines: [{ variantId: '2001', quantity, customAttributes: svcData(kg, 'kg') }],
    });
  const lineOf = (orderId: string) => shop.fake.state.orders.get(orderId)!.lines[0]!.id;

  it("when the shop is connected, then Shopify shows the whole units of Tare's exact stock", async () => {
    expect(await shop.total('2001')).toBe('20.5');
    expect(shop.shown('2001')).toBe(20);
  });

  it('when a customer buys a measured line, then the sale is booked exactly and Shopify shows the whole units left', async () => {
    buy(2, 1.25);
    await shop.settle();
    expect(await shop.total('2001')).toBe('18');
    expect(shop.shown('2001')).toBe(18);
  });

  it('when a line is refunded with restock, then its measurement comes back', async () => {
    const orderId = buy(2, 1.25);
    await shop.settle();
    shop.fake.refund(orderId, { lines: [{ lineItemId: lineOf(orderId), quantity: 1, restockType: 'return' }] });
    await shop.settle();
    expect(await shop.total('2001')).toBe('19.25');
    expect(shop.shown('2001')).toBe(19);
  });

  it('when an order is cancelled with restock, then everything it took comes back', async () => {
    const orderId = buy(3, 0.75);
    await shop.settle();
    expect(await shop.total('2001')).toBe('18.25');
    shop.fake.cancelOrder(orderId, { restock: true });
    await shop.settle();
    expect(await shop.total('2001')).toBe('20.5');
    expect(shop.shown('2001')).toBe(20);
  });

  it('when the merchant types a stock figure, then it stands and Tare keeps its fraction', async () => {
    shop.fake.merchantSetsStock(LOC, '2001', 7);
    await shop.settle();
    expect(await shop.total('2001')).toBe('7.5');
    expect(shop.shown('2001')).toBe(7);
  });

  it('when an order is edited through PATCH /orders, then Shopify commits the edit and the difference is booked', async () => {
    const orderId = buy(2, 1.25);
    await shop.settle();
    const res = await call(shop.server, `/api/v1/orders/${orderId}`, {
      key: shop.apiKey,
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ edits: [{ lineItemId: lineOf(orderId), quantity: 1 }], staffNote: 'one bag' }),
    });
    expect(res.status).toBe(200);
    await shop.settle();
    expect(shop.fake.state.orders.get(orderId)!.lines[0]!.currentQuantity).toBe(1);
    expect(await shop.total('2001')).toBe('19.25');
    expect(shop.shown('2001')).toBe(19);
  });

  it("when the merchant's change never reached Tare, then reconciliation reports the drift and --fix adopts it", async () => {
    shop.fake.webhooks.hold();
    shop.fake.merchantSetsStock(LOC, '2001', 7);
    const deps = { db, gateway: shop.server.services.gateway };
    const [report] = await reconcile(deps, { shopDomain: shop.domain, fix: false });
    expect(report!.drift).toEqual([expect.objectContaining({ variantId: '2001', platform: 7, expected: 20 })]);
    await reconcile(deps, { shopDomain: shop.domain, fix: true });
    await shop.fake.webhooks.release(); // the late notice now changes nothing
    await shop.settle();
    expect(await shop.total('2001')).toBe('7.5');
    expect(shop.shown('2001')).toBe(7);
  });

  it("when the shop's sync is stopped, then reconciliation says so and compares nothing", async () => {
    await markConnectionFailed(db, shop.shopId, 'uninstalled', 'the app was uninstalled');
    const [report] = await reconcile(
      { db, gateway: shop.server.services.gateway },
      { shopDomain: shop.domain, fix: true },
    );
    expect(report!.unavailable).toMatch(/stopped \(uninstalled\)/);
    expect(report!.drift).toEqual([]);
  });

  it('when Tare adjusts stock, then Shopify gets one write and its echo costs no read', async () => {
    const before = shop.fake.calls.length;
    const res = await call(shop.server, '/api/v1/inventory/adjustments', {
      key: shop.apiKey,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'echo-1' },
      body: JSON.stringify({ locationId: LOC, adjustments: [{ variantId: '2001', delta: { value: 2, unit: 'kg' } }] }),
    });
    expect(res.status).toBe(200);
    await shop.settle();
    expect(shop.shown('2001')).toBe(22);
    const names = shop.fake.calls.slice(before).map((c) => c.operationName);
    expect(names).toEqual(['SetInventoryQuantities']);
  });
});
