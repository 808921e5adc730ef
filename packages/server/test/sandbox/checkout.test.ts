import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { holdDeliveries, newCart, platformShows, send, svcData } from './support.js';

/** A shop with 10 kg of variant 2001 (sold per kg) at location 70001, and a second location. */
function stockedShop() {
  const fixture = shopFixture({
    locations: [
      { id: '70001', name: 'Main store' },
      { id: '70002', name: 'Warehouse' },
    ],
  });
  fixture.products![0]!.variants![0]!.inventory = [{ locationId: '70001', quantity: { value: 10, unit: 'kg' } }];
  return fixture;
}

describe.each(testDrivers({ citus: true }))('POST /sandbox/carts/{token}/checkout on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    // What the platform does on its own is checked here, before Tare acts on its events.
    await holdDeliveries(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  async function cartWith(key: string, items: unknown[]) {
    const token = await newCart(server, key);
    const res = await send(server, key, 'POST', `/sandbox/carts/${token}/add`, { items });
    expect(res.status).toBe(200);
    return token;
  }

  const events = async (shopId: string) =>
    (
      await db.query<{ event_id: string; topic: string; payload: unknown }>(
        'SELECT event_id, topic, payload FROM platform_events WHERE shop_id = $1 ORDER BY id',
        [shopId],
      )
    ).rows;

  describe('happy', () => {
    it('when a cart is checked out, then it is 201 with an open order at the first location, and the cart is consumed', async () => {
      const { key } = await seedShop(db, stockedShop());
      const properties = { _svc_data: svcData('weight', 2.5, 'kg'), Gift: 'yes' };
      const token = await cartWith(key, [
        { id: 2001, quantity: 1, properties },
        { id: 2002, quantity: 2 },
      ]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      expect(res.status).toBe(201);
      const order = {
        id: expect.stringMatching(/^[0-9]+$/),
        name: '#1001',
        customer: null,
        status: 'open',
        location_id: '70001',
        line_items: [
          {
            id: expect.stringMatching(/^[0-9]+$/),
            variant_id: '2001',
            product_id: '1001',
            quantity: 1,
            price: 6000,
            line_price: 6000,
            properties,
            fulfilled: false,
            refunded_quantity: 0,
          },
          {
            id: expect.stringMatching(/^[0-9]+$/),
            variant_id: '2002',
            product_id: '1001',
            quantity: 2,
            price: 2400,
            line_price: 4800,
            properties: {},
            fulfilled: false,
            refunded_quantity: 0,
          },
        ],
        refunds: [],
        total_price: 10800,
        currency: 'USD',
      };
      expect(res.body).toEqual({
        success: true,
        data: { order },
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
        order,
      });
      expectErrorEnvelope(await call(server, `/sandbox/carts/${token}`, { key }), 404, 'not_found');
    });

    it('when a cart is checked out, then the platform takes each line’s quantity off its own units and emits order placed', async () => {
      const { key, shopId } = await seedShop(db, stockedShop());
      const token = await cartWith(key, [
        { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 2.5, 'kg') } },
        { id: 2002, quantity: 3 },
      ]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      expect(await platformShows(server, key, '2001')).toBe(9);
      // A level the platform never stocked starts at 0: it oversells, as platforms may.
      expect(await platformShows(server, key, '2002')).toBe(-3);
      expect(await events(shopId)).toEqual([
        {
          event_id: expect.stringMatching(/^sandbox:[0-9a-f-]{36}$/),
          topic: 'order_placed',
          payload: { orderId: res.body.order.id },
        },
      ]);
    });

    it('when the customer gives a name and an e-mail, then the order keeps them and the shop numbers its orders from #1001', async () => {
      const { key } = await seedShop(db, stockedShop());
      const first = await send(
        server,
        key,
        'POST',
        `/sandbox/carts/${await cartWith(key, [{ id: 2001, quantity: 1 }])}/checkout`,
        {
          customer: { name: '  Ada Lovelace ', email: 'ada@example.com' },
        },
      );
      const second = await send(
        server,
        key,
        'POST',
        `/sandbox/carts/${await cartWith(key, [{ id: 2001, quantity: 1 }])}/checkout`,
        {
          customer: { email: 'guest@example.com' },
        },
      );
      const other = await seedShop(db, stockedShop());
      const elsewhere = await send(
        server,
        other.key,
        'POST',
        `/sandbox/carts/${await cartWith(other.key, [{ id: 2001, quantity: 1 }])}/checkout`,
        {},
      );

      expect([first.status, second.status, elsewhere.status]).toEqual([201, 201, 201]);
      expect(first.body.order).toMatchObject({
        name: '#1001',
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      });
      expect(second.body.order).toMatchObject({ name: '#1002', customer: { name: null, email: 'guest@example.com' } });
      // Each shop counts its own orders, as each Shopify store does.
      expect(elsewhere.body.order).toMatchObject({ name: '#1001', customer: null });
      const read = await call(server, `/sandbox/orders/${first.body.order.id}`, { key });
      expect(read.body.order).toMatchObject({
        name: '#1001',
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      });
    });

    it('when a location is given, then the order is sold from there', async () => {
      const { key } = await seedShop(db, stockedShop());
      const token = await cartWith(key, [{ id: 2001, quantity: 1 }]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, { locationId: '70002' });

      expect(res.body.order.location_id).toBe('70002');
      expect(await platformShows(server, key, '2001', '70002')).toBe(-1);
      expect(await platformShows(server, key, '2001', '70001')).toBe(10);
    });

    it('when the checkout is sent without a body, then it is as an empty one', async () => {
      const { key } = await seedShop(db, stockedShop());
      const token = await cartWith(key, [{ id: 2001, quantity: 1 }]);

      const res = await call(server, `/sandbox/carts/${token}/checkout`, { key, method: 'POST' });

      expect(res.status).toBe(201);
      expect(res.body.order.location_id).toBe('70001');
    });

    it('when no location is given, then the first by numeric id is used', async () => {
      const { key } = await seedShop(
        db,
        shopFixture({
          locations: [
            { id: '10000', name: 'Later' },
            { id: '9000', name: 'First' },
          ],
        }),
      );
      const token = await cartWith(key, [{ id: 2001, quantity: 1 }]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      expect(res.body.order.location_id).toBe('9000');
    });

    it('when a line measures a preset with its own price, then the order charges that price', async () => {
      const fixture = stockedShop();
      const variant = fixture.products![0]!.variants![0]!;
      fixture.products![0]!.variants![0] = {
        ...variant,
        price: '42.00',
        settings: { onlineStore: { displayStyle: 'dropdown', presets: [{ value: 1, price: '39.00' }, { value: 2 }] } },
      };
      const { key } = await seedShop(db, fixture);
      const token = await cartWith(key, [
        { id: 2001, quantity: 3, properties: { _svc_data: svcData('weight', 1, 'kg') } },
        { id: 2001, quantity: 1, properties: { _svc_data: svcData('weight', 2, 'kg') } },
      ]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      expect(res.status).toBe(201);
      expect(
        res.body.order.line_items.map((l: { price: number; line_price: number }) => [l.price, l.line_price]),
      ).toEqual([
        [3900, 11700],
        [8400, 8400],
      ]);
      expect(res.body.order.total_price).toBe(20100);
    });

    it('when the order is read through the API, then its measured line is there without any import', async () => {
      const { key } = await seedShop(db, stockedShop());
      const token = await cartWith(key, [
        { id: 2001, quantity: 2, properties: { _svc_data: svcData('weight', 1.25, 'kg') } },
        { id: 2001, quantity: 1 },
      ]);
      const { body } = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      const res = await call(server, `/api/v1/orders/${body.order.id}`, { key });

      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        expect.objectContaining({
          lineItemId: body.order.line_items[0].id,
          quantity: 2,
          measurement: { type: 'weight', value: 1.25, unit: 'kg' },
          unitPrice: '$24.00 per kg',
        }),
      ]);
    });
  });

  describe('error', () => {
    it('when the cart is empty, then it is 400 at its items, and nothing is created', async () => {
      const { key, shopId } = await seedShop(db, stockedShop());
      const token = await newCart(server, key);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        { path: '/items', message: 'the cart has no items to check out' },
      ]);
      expect(await events(shopId)).toEqual([]);
    });

    it('when the location is unknown, then it is 404, the cart is kept and the platform untouched', async () => {
      const { key, shopId } = await seedShop(db, stockedShop());
      const token = await cartWith(key, [{ id: 2001, quantity: 1 }]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, { locationId: '79999' });

      expect(expectErrorEnvelope(res, 404, 'not_found').details).toMatchObject({ resource: 'location', id: '79999' });
      expect((await call(server, `/sandbox/carts/${token}`, { key })).body.items).toHaveLength(1);
      expect(await platformShows(server, key, '2001')).toBe(10);
      expect(await events(shopId)).toEqual([]);
    });

    it('when the shop has no location, then it is 422', async () => {
      const { key } = await seedShop(db, shopFixture({ locations: [] }));
      const token = await cartWith(key, [{ id: 2001, quantity: 1 }]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      expectErrorEnvelope(res, 422, 'unprocessable');
    });

    it.each([
      ['an unknown field', { location: '70001' }, '/location'],
      ['a location id that is not an id', { locationId: 70001 }, '/locationId'],
      ['an e-mail that is not one', { customer: { email: 'ada at example.com' } }, '/customer/email'],
      ['a blank name', { customer: { name: '   ' } }, '/customer/name'],
      ['an unknown customer field', { customer: { phone: '+15550100' } }, '/customer/phone'],
    ])('when the body has %s, then it is 400 at it', async (_name, body, path) => {
      const { key } = await seedShop(db, stockedShop());
      const token = await cartWith(key, [{ id: 2001, quantity: 1 }]);

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, body);

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([expect.objectContaining({ path })]);
    });

    it('when a cart is checked out twice, then the second is 404', async () => {
      const { key } = await seedShop(db, stockedShop());
      const token = await cartWith(key, [{ id: 2001, quantity: 1 }]);
      await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      const res = await send(server, key, 'POST', `/sandbox/carts/${token}/checkout`, {});

      expectErrorEnvelope(res, 404, 'not_found');
      expect(await platformShows(server, key, '2001')).toBe(9);
    });
  });

  describe('security', () => {
    it('when another shop checks the cart out or names its location, then it is 404 and nothing moves', async () => {
      const owner = await seedShop(db, stockedShop());
      const token = await cartWith(owner.key, [{ id: 2001, quantity: 1 }]);
      const other = await seedShop(db, shopFixture({ locations: [{ id: '70005', name: 'Elsewhere' }] }));
      const otherToken = await cartWith(other.key, [{ id: 2001, quantity: 1 }]);

      expectErrorEnvelope(
        await send(server, other.key, 'POST', `/sandbox/carts/${token}/checkout`, {}),
        404,
        'not_found',
      );
      const res = await send(server, other.key, 'POST', `/sandbox/carts/${otherToken}/checkout`, {
        locationId: '70002',
      });

      expectErrorEnvelope(res, 404, 'not_found');
      expect(await platformShows(server, owner.key, '2001', '70002')).toBe(0);
      expect(await platformShows(server, owner.key, '2001')).toBe(10);
    });

    it('when no key is sent, then it is 401 and the cart is kept', async () => {
      const { key } = await seedShop(db, stockedShop());
      const token = await cartWith(key, [{ id: 2001, quantity: 1 }]);

      const res = await call(server, `/sandbox/carts/${token}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });

      expectErrorEnvelope(res, 401, 'unauthorized');
      expect((await call(server, `/sandbox/carts/${token}`, { key })).body.items).toHaveLength(1);
    });
  });
});
