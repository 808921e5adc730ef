import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { call, expectErrorEnvelope, seedShop, shopFixture, startTestServer } from '../support/harness.js';
import { holdDeliveries, send } from './support.js';

describe.each(testDrivers())('PUT and GET /sandbox/inventory on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
    // The platform's figure is checked here, before Tare acts on the event.
    await holdDeliveries(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const put = (key: string, body: unknown) => send(server, key, 'PUT', '/sandbox/inventory', body);
  const get = (key: string, query: string) => call(server, `/sandbox/inventory?${query}`, { key });

  describe('happy', () => {
    it('when the merchant types a figure, then the platform shows it and stock changed is emitted', async () => {
      const { key, shopId } = await seedShop(db);

      const res = await put(key, { locationId: '70001', variantId: '2001', available: 15 });

      const level = { locationId: '70001', variantId: '2001', available: 15 };
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: level,
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
        ...level,
      });
      expect((await get(key, 'locationId=70001&variantId=2001')).body.data).toEqual(level);
      const { rows } = await db.query<{ event_id: string; topic: string; payload: unknown }>(
        'SELECT event_id, topic, payload FROM platform_events WHERE shop_id = $1',
        [shopId],
      );
      expect(rows).toEqual([{ event_id: expect.stringMatching(/^sandbox:/), topic: 'stock_changed', payload: level }]);
    });

    it('when a figure is typed twice, then the last stands, and 0 is a figure', async () => {
      const { key } = await seedShop(db);
      await put(key, { locationId: '70001', variantId: '2002', available: 4 });

      await put(key, { locationId: '70001', variantId: '2002', available: 0 });

      expect((await get(key, 'locationId=70001&variantId=2002')).body.available).toBe(0);
    });

    it('when a level was never stocked, then it reads 0', async () => {
      const { key } = await seedShop(db);

      const res = await get(key, 'locationId=70001&variantId=2003');

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ locationId: '70001', variantId: '2003', available: 0 });
    });
  });

  describe('error', () => {
    it.each([
      ['negative', -1],
      ['fractional', 1.5],
      ['a string', '15'],
      ['over 32 bits', 2147483648],
    ])('when the figure is %s, then it is 400 at it', async (_name, available) => {
      const { key } = await seedShop(db);

      const res = await put(key, { locationId: '70001', variantId: '2001', available });

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual([
        expect.objectContaining({ path: '/available' }),
      ]);
    });

    it('when a field is missing or unknown, then it is 400 at it', async () => {
      const { key } = await seedShop(db);

      const res = await put(key, { locationId: '70001', available: 1, quantity: 1 });

      expect(expectErrorEnvelope(res, 400, 'bad_request').details.errors).toEqual(
        expect.arrayContaining([
          { path: '/variantId', message: 'is required' },
          { path: '/quantity', message: "unknown field 'quantity'" },
        ]),
      );
    });

    it('when the location or the variant is unknown, then setting and reading are 404 naming it', async () => {
      const { key, shopId } = await seedShop(db);

      for (const [res, resource] of [
        [await put(key, { locationId: '79999', variantId: '2001', available: 1 }), 'location'],
        [await put(key, { locationId: '70001', variantId: '2999', available: 1 }), 'variant'],
        [await get(key, 'locationId=79999&variantId=2001'), 'location'],
        [await get(key, 'locationId=70001&variantId=2999'), 'variant'],
      ] as const) {
        expect(expectErrorEnvelope(res, 404, 'not_found').details).toMatchObject({ resource });
      }
      const { rows } = await db.query('SELECT 1 FROM platform_events WHERE shop_id = $1', [shopId]);
      expect(rows).toEqual([]);
    });

    it('when the query lacks a variant or has a bad id, then it is 400 on the query', async () => {
      const { key } = await seedShop(db);

      for (const query of [
        'locationId=70001',
        'locationId=70001&variantId=abc',
        'locationId=70001&variantId=2001&x=1',
      ]) {
        expect(expectErrorEnvelope(await get(key, query), 400, 'bad_request').details).toMatchObject({
          in: 'querystring',
        });
      }
    });
  });

  describe('security', () => {
    it("when a shop names another shop's location, then it is 404 and the other shop's level is untouched", async () => {
      const owner = await seedShop(db, shopFixture({ locations: [{ id: '70009', name: 'Theirs' }] }));
      await put(owner.key, { locationId: '70009', variantId: '2001', available: 5 });
      const other = await seedShop(db);

      expectErrorEnvelope(
        await put(other.key, { locationId: '70009', variantId: '2001', available: 99 }),
        404,
        'not_found',
      );
      expectErrorEnvelope(await get(other.key, 'locationId=70009&variantId=2001'), 404, 'not_found');
      expect((await get(owner.key, 'locationId=70009&variantId=2001')).body.available).toBe(5);
    });

    it('when two shops share location and variant ids, then each sees only its own level', async () => {
      const first = await seedShop(db);
      const second = await seedShop(db);

      await put(first.key, { locationId: '70001', variantId: '2001', available: 3 });
      await put(second.key, { locationId: '70001', variantId: '2001', available: 8 });

      expect((await get(first.key, 'locationId=70001&variantId=2001')).body.available).toBe(3);
      expect((await get(second.key, 'locationId=70001&variantId=2001')).body.available).toBe(8);
    });

    it('when no key is sent, then both are 401', async () => {
      expectErrorEnvelope(
        await call(server, '/sandbox/inventory?locationId=70001&variantId=2001'),
        401,
        'unauthorized',
      );
      const res = await call(server, '/sandbox/inventory', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ locationId: '70001', variantId: '2001', available: 1 }),
      });
      expectErrorEnvelope(res, 401, 'unauthorized');
    });
  });
});
