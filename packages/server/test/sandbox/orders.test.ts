import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { buy, holdDeliveries, platformShows, send, svcData } from './support.js';

const MEASURED = { _svc_data: svcData('weight', 1.25, 'kg') };

/** A shop with 10 kg of 2001 at 70001: the platform shows 10. */
function stockedShop() {
  const fixture = shopFixture();
  fixture.products![0]!.variants![0]!.inventory = [{ locationId: '70001', quantity: { value: 10, unit: 'kg' } }];
  return fixture;
}

describe.each(testDrivers({ citus: true }))('sandbox orders (read, cancel, refund, fulfil) on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    // The platform's own moves are checked here, before Tare acts on their events.
    await holdDeliveries(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  /** A shop and one order of two lines: 2 × 1.25 kg of 2001 and 1 ordinary unit of 2001. */
  async function shopWithOrder() {
    const shop = await seedShop(db, stockedShop());
    const order = await buy(server, shop.key, [
      { id: 2001, quantity: 2, properties: MEASURED },
      { id: 2001, quantity: 1, properties: { note: 'ordinary' } },
    ]);
    return { ...shop, order, lines: order.line_items.map((l: { id: string }) => l.id) as string[] };
  }

  const topics = async (shopId: string) =>
    (
      await db.query<{ topic: string; payload: unknown }>(
        'SELECT topic, payload FROM platform_events WHERE shop_id = $1 ORDER BY id',
        [shopId],
      )
    ).rows;

  const refund = (key: string, orderId: string, lines: unknown[]) =>
    send(server, key, 'POST', `/sandbox/orders/${orderId}/refunds`, { lines });

  describe('happy', () => {
    it('when an order is read, then it is the checkout’s order, in the envelope and at the top level', async () => {
      const { key, order } = await shopWithOrder();

      const res = await call(server, `/sandbox/orders/${order.id}`, { key });

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { order },
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
        order,
      });
    });

    it('when an order is cancelled with restock, then every unit goes back as a cancel refund and order cancelled is emitted', async () => {
      const { key, shopId, order, lines } = await shopWithOrder();
      expect(await platformShows(server, key, '2001')).toBe(7);

      const res = await send(server, key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: true });

      expect(res.status).toBe(200);
      expect(res.body.order).toMatchObject({
        status: 'cancelled',
        refunds: [
          {
            id: expect.stringMatching(/^[0-9]+$/),
            refund_line_items: [
              { line_item_id: lines[0], quantity: 2, restock_type: 'cancel' },
              { line_item_id: lines[1], quantity: 1, restock_type: 'cancel' },
            ],
          },
        ],
      });
      expect(res.body.order.line_items.map((l: { refunded_quantity: number }) => l.refunded_quantity)).toEqual([2, 1]);
      expect(await platformShows(server, key, '2001')).toBe(10);
      expect((await topics(shopId)).map((e) => e.topic)).toEqual(['order_placed', 'order_cancelled']);
      expect((await topics(shopId))[1]!.payload).toEqual({ orderId: order.id });
    });

    it('when an order is cancelled without restock (or with no body), then nothing goes back', async () => {
      const first = await shopWithOrder();
      const second = await shopWithOrder();

      const res = await send(server, first.key, 'POST', `/sandbox/orders/${first.order.id}/cancel`, { restock: false });
      const bare = await call(server, `/sandbox/orders/${second.order.id}/cancel`, { key: second.key, method: 'POST' });

      expect(res.body.order).toMatchObject({ status: 'cancelled', refunds: [] });
      expect(bare.status).toBe(200);
      expect(bare.body.order).toMatchObject({ status: 'cancelled', refunds: [] });
      expect(await platformShows(server, first.key, '2001')).toBe(7);
    });

    it('when an order partly refunded is cancelled with restock, then only the units not yet refunded go back', async () => {
      const { key, order, lines } = await shopWithOrder();
      await refund(key, order.id, [{ lineItemId: lines[0], quantity: 1, restockType: 'no_restock' }]);

      const res = await send(server, key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: true });

      expect(res.body.order.refunds[1].refund_line_items).toEqual([
        { line_item_id: lines[0], quantity: 1, restock_type: 'cancel' },
        { line_item_id: lines[1], quantity: 1, restock_type: 'cancel' },
      ]);
      expect(await platformShows(server, key, '2001')).toBe(9);
    });

    it('when units are refunded, then it is 201 with the refund, returned units go back and refund created is emitted', async () => {
      const { key, shopId, order, lines } = await shopWithOrder();

      const res = await refund(key, order.id, [
        { lineItemId: lines[0], quantity: 1, restockType: 'return' },
        { lineItemId: lines[1], quantity: 1, restockType: 'no_restock' },
      ]);

      expect(res.status).toBe(201);
      const refunded = {
        id: expect.stringMatching(/^[0-9]+$/),
        order_id: order.id,
        refund_line_items: [
          { line_item_id: lines[0], quantity: 1, restock_type: 'return' },
          { line_item_id: lines[1], quantity: 1, restock_type: 'no_restock' },
        ],
      };
      expect(res.body.refund).toEqual(refunded);
      expect(res.body.data.refund).toEqual(refunded);
      expect(res.body.order.line_items.map((l: { refunded_quantity: number }) => l.refunded_quantity)).toEqual([1, 1]);
      expect(res.body.order.status).toBe('open');
      // Only the returned unit is back: 10 − 3 + 1.
      expect(await platformShows(server, key, '2001')).toBe(8);
      expect((await topics(shopId)).at(-1)).toEqual({ topic: 'refund_created', payload: { orderId: order.id } });
    });

    it('when a line is refunded in two refunds up to its quantity, then both are kept', async () => {
      const { key, order, lines } = await shopWithOrder();
      await refund(key, order.id, [{ lineItemId: lines[0], quantity: 1, restockType: 'cancel' }]);

      const res = await refund(key, order.id, [{ lineItemId: lines[0], quantity: 1, restockType: 'return' }]);

      expect(res.status).toBe(201);
      expect(res.body.order.refunds).toHaveLength(2);
      expect(await platformShows(server, key, '2001')).toBe(9);
    });

    it('when a cancelled order is refunded, then it may be (a return after cancellation)', async () => {
      const { key, order, lines } = await shopWithOrder();
      await send(server, key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: false });

      const res = await refund(key, order.id, [{ lineItemId: lines[1], quantity: 1, restockType: 'return' }]);

      expect(res.status).toBe(201);
    });

    it('when an order is fulfilled, then every line is and order updated is emitted', async () => {
      const { key, shopId, order } = await shopWithOrder();

      const res = await call(server, `/sandbox/orders/${order.id}/fulfill`, { key, method: 'POST' });

      expect(res.status).toBe(200);
      expect(res.body.order.line_items.map((l: { fulfilled: boolean }) => l.fulfilled)).toEqual([true, true]);
      expect((await topics(shopId)).at(-1)).toEqual({ topic: 'order_updated', payload: { orderId: order.id } });
      expect(await platformShows(server, key, '2001')).toBe(7);
    });
  });

  describe('error', () => {
    it('when an order is unknown, then reading, cancelling, refunding and fulfilling are 404', async () => {
      const { key } = await seedShop(db);
      for (const res of [
        await call(server, '/sandbox/orders/123456', { key }),
        await send(server, key, 'POST', '/sandbox/orders/123456/cancel', { restock: true }),
        await refund(key, '123456', [{ lineItemId: '1', quantity: 1, restockType: 'return' }]),
        await call(server, '/sandbox/orders/123456/fulfill', { key, method: 'POST' }),
      ]) {
        expect(expectErrorEnvelope(res, 404, 'not_found').details).toMatchObject({ resource: 'order', id: '123456' });
      }
    });

    it('when the order id is not an id, then it is 400', async () => {
      const { key } = await seedShop(db);

      expectErrorEnvelope(await call(server, '/sandbox/orders/abc', { key }), 400, 'bad_request');
    });

    it('when a cancelled order is cancelled again, then it is 422 and nothing moves', async () => {
      const { key, shopId, order } = await shopWithOrder();
      await send(server, key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: true });

      const res = await send(server, key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: true });

      expect(expectErrorEnvelope(res, 422, 'unprocessable').details).toEqual({ status: 'cancelled' });
      expect(await platformShows(server, key, '2001')).toBe(10);
      expect((await topics(shopId)).map((e) => e.topic)).toEqual(['order_placed', 'order_cancelled']);
    });

    it('when a cancelled or already fulfilled order is fulfilled, then it is 422', async () => {
      const cancelled = await shopWithOrder();
      await send(server, cancelled.key, 'POST', `/sandbox/orders/${cancelled.order.id}/cancel`, {});
      const fulfilled = await shopWithOrder();
      await call(server, `/sandbox/orders/${fulfilled.order.id}/fulfill`, { key: fulfilled.key, method: 'POST' });

      for (const { key, order } of [cancelled, fulfilled]) {
        expectErrorEnvelope(
          await call(server, `/sandbox/orders/${order.id}/fulfill`, { key, method: 'POST' }),
          422,
          'unprocessable',
        );
      }
    });

    it('when a refund names a line of another order, or one twice, then it is 400 at that line and nothing is refunded', async () => {
      const { key, shopId, order, lines } = await shopWithOrder();
      const other = await buy(server, key, [{ id: 2001, quantity: 1 }]);

      const res = await refund(key, order.id, [
        { lineItemId: lines[0], quantity: 1, restockType: 'return' },
        { lineItemId: other.line_items[0].id, quantity: 1, restockType: 'return' },
        { lineItemId: lines[0], quantity: 1, restockType: 'return' },
      ]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        { path: '/lines/1/lineItemId', message: `order ${order.id} has no line '${other.line_items[0].id}'` },
        { path: '/lines/2/lineItemId', message: `line '${lines[0]}' is already at /lines/0` },
      ]);
      expect((await call(server, `/sandbox/orders/${order.id}`, { key })).body.order.refunds).toEqual([]);
      expect(await platformShows(server, key, '2001')).toBe(6);
      expect((await topics(shopId)).map((e) => e.topic)).toEqual(['order_placed', 'order_placed']);
    });

    it('when a refund asks for more units than are left, then it is 400 at its quantity', async () => {
      const { key, order, lines } = await shopWithOrder();
      await refund(key, order.id, [{ lineItemId: lines[0], quantity: 1, restockType: 'no_restock' }]);

      const res = await refund(key, order.id, [{ lineItemId: lines[0], quantity: 2, restockType: 'return' }]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        { path: '/lines/0/quantity', message: `line '${lines[0]}' has 1 unit(s) left to refund, not 2` },
      ]);
    });

    it.each([
      ['a quantity of 0', { quantity: 0 }, '/lines/0/quantity'],
      ['a fractional quantity', { quantity: 0.5 }, '/lines/0/quantity'],
      ['an unknown restock type', { restockType: 'legacy_restock' }, '/lines/0/restockType'],
      ['an unknown field', { reason: 'damaged' }, '/lines/0/reason'],
      ['a numeric line id', { lineItemId: 900000002 }, '/lines/0/lineItemId'],
    ])('when a refund line has %s, then it is 400 at it', async (_name, change, path) => {
      const { key, order, lines } = await shopWithOrder();

      const res = await refund(key, order.id, [
        { lineItemId: lines[0], quantity: 1, restockType: 'return', ...change },
      ]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([expect.objectContaining({ path })]);
    });

    it('when a refund has no lines or cancel an unknown field, then it is 400', async () => {
      const { key, order } = await shopWithOrder();

      expectErrorEnvelope(await refund(key, order.id, []), 400, 'bad_request');
      const res = await send(server, key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: 'yes' });
      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        expect.objectContaining({ path: '/restock' }),
      ]);
    });
  });

  describe('security', () => {
    it("when another shop's key names the order, then every order action is 404 and the order is untouched", async () => {
      const { key, order, lines } = await shopWithOrder();
      const other = await seedShop(db);

      for (const res of [
        await call(server, `/sandbox/orders/${order.id}`, { key: other.key }),
        await send(server, other.key, 'POST', `/sandbox/orders/${order.id}/cancel`, { restock: true }),
        await refund(other.key, order.id, [{ lineItemId: lines[0], quantity: 1, restockType: 'return' }]),
        await call(server, `/sandbox/orders/${order.id}/fulfill`, { key: other.key, method: 'POST' }),
      ]) {
        expectErrorEnvelope(res, 404, 'not_found');
      }
      expect((await call(server, `/sandbox/orders/${order.id}`, { key })).body.order).toEqual(order);
      expect(await platformShows(server, key, '2001')).toBe(7);
    });

    it('when no key is sent, then every order action is 401', async () => {
      const { order } = await shopWithOrder();
      for (const path of [`/cancel`, `/refunds`, `/fulfill`]) {
        const res = await call(server, `/sandbox/orders/${order.id}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expectErrorEnvelope(res, 401, 'unauthorized');
      }
      expectErrorEnvelope(await call(server, `/sandbox/orders/${order.id}`), 401, 'unauthorized');
    });

    it("when a line of another shop's order is named in a refund, then it is 400 as an unknown line", async () => {
      const mine = await shopWithOrder();
      const theirs = await shopWithOrder();

      const res = await refund(mine.key, mine.order.id, [
        { lineItemId: theirs.lines[0]!, quantity: 1, restockType: 'return' },
      ]);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors[0].path).toBe('/lines/0/lineItemId');
      expect(await platformShows(server, theirs.key, '2001')).toBe(7);
    });
  });
});
