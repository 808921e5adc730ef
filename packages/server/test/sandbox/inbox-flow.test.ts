import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { buy, holdDeliveries, platformShows, releaseDeliveries, send, settle, svcData, typeStock } from './support.js';

// The whole flow of PRODUCT.md §14–15: the sandbox shop sells, cancels, refunds and takes the
// merchant's figures; its events reach Tare through the inbox and Tare's exact stock follows.

/** 10 kg of 2001 (sold per kg) at 70001: the platform shows 10. */
function stockedShop(settings: { platformStockChanges?: 'adopt' | 'override' } = {}) {
  const fixture = shopFixture({ settings: { mergeMatchingLineItems: true, ...settings } });
  fixture.products![0]!.variants![0]!.inventory = [{ locationId: '70001', quantity: { value: 10, unit: 'kg' } }];
  return fixture;
}

const kg = (value: number) => ({ _svc_data: svcData('weight', value, 'kg') });

describe.each(testDrivers())('sandbox shop through the inbox on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  /** Tare's level of 2001 at 70001 as the API reads it. */
  async function tare(key: string) {
    const res = await call(server, '/api/v1/inventory/levels?locationId=70001&variantId=2001', { key });
    expect(res.status).toBe(200);
    const level = res.body.data.levels[0];
    return { kg: level.quantity.value as number, platform: level.platform.available as number };
  }

  async function ledger(key: string) {
    const res = await call(server, '/api/v1/inventory/ledger?locationId=70001&variantId=2001', { key });
    expect(res.status).toBe(200);
    return (res.body.data.entries as { operation: string; delta: number; reference: unknown }[])
      .map(({ operation, delta, reference }) => ({ operation, delta, reference }))
      .reverse();
  }

  it('when 2.5 kg of a 1 kg variant is bought, then the platform shows 9 at once, and once Tare has the event 7.5 kg and 7', async () => {
    const { key } = await seedShop(db, stockedShop());
    await holdDeliveries(db);

    const order = await buy(server, key, [{ id: 2001, quantity: 1, properties: kg(2.5) }]);

    expect(await platformShows(server, key, '2001')).toBe(9);
    expect((await tare(key)).kg).toBe(10);
    await releaseDeliveries(db);
    await settle(server, db);
    expect(await tare(key)).toEqual({ kg: 7.5, platform: 7 });
    expect(await platformShows(server, key, '2001')).toBe(7);
    expect((await ledger(key)).at(-1)).toEqual({
      operation: 'sale',
      delta: -2.5,
      reference: { type: 'order', id: order.id },
    });
  });

  it('when the order is cancelled with restock, then Tare has 10 kg again and the platform 10', async () => {
    const { key } = await seedShop(db, stockedShop());
    const order = await buy(server, key, [{ id: 2001, quantity: 1, properties: kg(2.5) }]);
    await settle(server, db);

    await send(server, key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: true });
    await settle(server, db);

    expect(await tare(key)).toEqual({ kg: 10, platform: 10 });
    expect(await platformShows(server, key, '2001')).toBe(10);
    expect((await ledger(key)).at(-1)).toEqual({
      operation: 'order_cancel',
      delta: 2.5,
      reference: { type: 'order', id: order.id },
    });
  });

  it('when 1 of 2 units is refunded with return, then half is given back; with no_restock, nothing', async () => {
    const { key } = await seedShop(db, stockedShop());
    const order = await buy(server, key, [{ id: 2001, quantity: 2, properties: kg(1.25) }]);
    await settle(server, db);
    expect(await tare(key)).toEqual({ kg: 7.5, platform: 7 });
    const lineItemId = order.line_items[0].id;

    const returned = await send(server, key, 'POST', `/sandbox/orders/${order.id}/refunds`, {
      lines: [{ lineItemId, quantity: 1, restockType: 'return' }],
    });
    await settle(server, db);
    expect(await tare(key)).toEqual({ kg: 8.75, platform: 8 });
    expect(await platformShows(server, key, '2001')).toBe(8);
    expect((await ledger(key)).at(-1)).toEqual({
      operation: 'refund',
      delta: 1.25,
      reference: { type: 'refund', id: returned.body.refund.id },
    });

    await send(server, key, 'POST', `/sandbox/orders/${order.id}/refunds`, {
      lines: [{ lineItemId, quantity: 1, restockType: 'no_restock' }],
    });
    await settle(server, db);
    expect(await tare(key)).toEqual({ kg: 8.75, platform: 8 });
    expect(await ledger(key)).toHaveLength(3); // import, sale, refund
  });

  it('when the merchant types 15 on the platform, then Tare adopts it: 7.5 + 8 = 15.5 kg, platform 15', async () => {
    const { key } = await seedShop(db, stockedShop());
    await buy(server, key, [{ id: 2001, quantity: 1, properties: kg(2.5) }]);
    await settle(server, db);

    await typeStock(server, key, '2001', 15);
    await settle(server, db);

    expect(await tare(key)).toEqual({ kg: 15.5, platform: 15 });
    expect(await platformShows(server, key, '2001')).toBe(15);
    expect((await ledger(key)).at(-1)).toMatchObject({ operation: 'platform_adjustment', delta: 8 });
  });

  it('when the shop overrides platform stock changes, then Tare projects its own 7 back over the 15', async () => {
    const { key } = await seedShop(db, stockedShop({ platformStockChanges: 'override' }));
    await buy(server, key, [{ id: 2001, quantity: 1, properties: kg(2.5) }]);
    await settle(server, db);

    await typeStock(server, key, '2001', 15);
    await settle(server, db);

    expect(await tare(key)).toEqual({ kg: 7.5, platform: 7 });
    expect(await platformShows(server, key, '2001')).toBe(7);
  });

  it('when a line’s _svc_data is invalid for its variant, then Tare books nothing for it', async () => {
    const { key, shopId } = await seedShop(db, stockedShop());

    // Grams on a variant sold per kg: the cart sells it as an ordinary line.
    const order = await buy(server, key, [
      { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 2500, 'g') } },
    ]);
    await settle(server, db);

    expect(order.line_items[0].price).toBe(2400);
    expect((await tare(key)).kg).toBe(10);
    expect((await ledger(key)).map((e) => e.operation)).toEqual(['import']);
    const { rows } = await db.query('SELECT status FROM platform_events WHERE shop_id = $1', [shopId]);
    expect(rows).toEqual([{ status: 'processed' }]);
  });

  it('when an order is placed in the sandbox, then the API reads and edits it like any platform order', async () => {
    const { key } = await seedShop(db, stockedShop());
    const order = await buy(server, key, [{ id: 2001, quantity: 1, properties: kg(2.5) }]);
    await settle(server, db);

    const res = await call(server, `/api/v1/orders/${order.id}`, {
      key,
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        edits: [{ lineItemId: order.line_items[0].id, measurement: { type: 'weight', value: 3, unit: 'kg' } }],
      }),
    });
    await settle(server, db);

    expect(res.status).toBe(200);
    expect(await tare(key)).toEqual({ kg: 7, platform: 7 });
    const sandboxOrder = await call(server, `/sandbox/orders/${order.id}`, { key });
    expect(JSON.parse(sandboxOrder.body.order.line_items[0].properties._svc_data).measurement.dimensions[0].value).toBe(
      3,
    );
  });
});
