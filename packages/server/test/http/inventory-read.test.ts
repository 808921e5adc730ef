import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import {
  call,
  expectErrorEnvelope,
  seedShop,
  shopFixture,
  startTestServer,
  variantFixture,
} from '../support/harness.js';
import { inventorySender, otherShop } from '../support/inventory-requests.js';

// GET /api/v1/inventory/levels and GET /api/v1/inventory/ledger (PRODUCT.md §13).

const adjustRequest = inventorySender('/api/v1/inventory/adjustments', 'POST');
const setRequest = inventorySender('/api/v1/inventory/levels', 'PUT');

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const levelsPath = (variantIds: string[], locationId = '70001') =>
  `/api/v1/inventory/levels?${new URLSearchParams([
    ['locationId', locationId],
    ...variantIds.map((id) => ['variantId', id]),
  ])}`;

const ledgerPath = (params: Record<string, string | number>) =>
  `/api/v1/inventory/ledger?${new URLSearchParams(
    Object.entries({ locationId: '70001', ...params }).map(([k, v]) => [k, String(v)]),
  )}`;

const level = (variantId: string, quantity: number, available: number, fraction: number, unit: string) => ({
  variantId,
  locationId: '70001',
  quantity: { value: quantity, unit },
  platform: { available },
  fraction: { value: fraction, unit },
  updatedAt: expect.stringMatching(ISO_TIME),
});

describe.each(testDrivers())('GET /api/v1/inventory/levels and /ledger on $name', ({ create }) => {
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

  /** Sends a write and expects it to succeed; returns the answer's body. */
  async function write(
    send: typeof adjustRequest,
    key: string,
    entries: Record<string, unknown>,
    idempotencyKey?: string, // a fresh one when not given
  ) {
    const res = await send(server, key, { locationId: '70001', ...entries }, { idempotencyKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  const adjust = (key: string, variantId: string, value: number, unit: string, idempotencyKey?: string) =>
    write(adjustRequest, key, { adjustments: [{ variantId, delta: { value, unit } }] }, idempotencyKey);
  const set = (key: string, variantId: string, value: number, unit: string, idempotencyKey?: string) =>
    write(setRequest, key, { levels: [{ variantId, quantity: { value, unit } }] }, idempotencyKey);

  const get = (key: string | undefined, path: string) => call(server, path, { key });

  describe('happy', () => {
    it('when a 1 kg and a 100 g variant were set and adjusted, then each reads its exact total, platform units and fraction, in the order asked', async () => {
      const { key } = await seedShop(db, shopFixture());
      await set(key, '2001', 12, 'kg');
      await set(key, '2002', 1, 'kg');
      await adjust(key, '2001', 0.75, 'kg');
      await adjust(key, '2002', 250, 'g');

      const res = await get(key, levelsPath(['2002', '2001']));

      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        success: true,
        data: { levels: [level('2002', 1250, 12, 50, 'g'), level('2001', 12.75, 12, 0.75, 'kg')] },
        error: null,
        meta: {},
        requestId: res.headers.get('x-request-id'),
      });
    });

    it('when one variant id is sent, then it reads like a list of one', async () => {
      const { key } = await seedShop(db, shopFixture());
      await set(key, '2001', 3.5, 'kg');

      const res = await get(key, levelsPath(['2001']));

      expect(res.body.data.levels).toEqual([level('2001', 3.5, 3, 0.5, 'kg')]);
    });

    it('when a configured variant has no stock at the location yet, then it reads zero with no updatedAt', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await get(key, levelsPath(['2003']));

      expect(res.body.data.levels).toEqual([
        {
          variantId: '2003',
          locationId: '70001',
          quantity: { value: 0, unit: 'lb' },
          platform: { available: 0 },
          fraction: { value: 0, unit: 'lb' },
          updatedAt: null,
        },
      ]);
    });

    it('when the total is below zero, then the platform shows the floor and the fraction stays in [0, unit)', async () => {
      const { key } = await seedShop(db, shopFixture());
      await adjust(key, '2002', -30, 'g');

      const res = await get(key, levelsPath(['2002']));

      expect(res.body.data.levels).toEqual([level('2002', -30, -1, 70, 'g')]);
    });

    it('when Tare has projected whole units, then platform.available is what it projected, not recomputed', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      await set(key, '2001', 12.75, 'kg');
      // As after a platform sale of one unit that Tare has accounted for but not yet booked.
      await db.query(`UPDATE inventory_levels SET platform_available = 11 WHERE shop_id = $1 AND variant_id = '2001'`, [
        shopId,
      ]);

      const res = await get(key, levelsPath(['2001']));

      expect(res.body.data.levels).toEqual([level('2001', 12.75, 11, 0.75, 'kg')]);
    });

    it('when a level was never projected, then platform.available is floor(total / unitMeasurement.value)', async () => {
      const { key, shopId } = await seedShop(db, shopFixture());
      await set(key, '2002', 1250, 'g');
      await db.query(
        `UPDATE inventory_levels SET platform_available = NULL WHERE shop_id = $1 AND variant_id = '2002'`,
        [shopId],
      );

      const res = await get(key, levelsPath(['2002']));

      expect(res.body.data.levels).toEqual([level('2002', 1250, 12, 50, 'g')]);
    });

    it('when the variant’s unit changed since the level was written, then the level reads in the new unit', async () => {
      const fixture = shopFixture();
      const { key } = await seedShop(db, fixture);
      await set(key, '2001', 2.5, 'kg');
      const [coffee, ...others] = fixture.products!;
      const regrams = {
        ...coffee!,
        variants: coffee!.variants.map((v) => (v.id === '2001' ? variantFixture('2001', 'g', 300) : v)),
      };
      await seedShop(db, { ...fixture, products: [regrams, ...others] });

      const res = await get(key, levelsPath(['2001']));

      // Whatever Tare last projected to the platform stays until the next write projects again.
      expect(res.body.data.levels).toEqual([level('2001', 2500, expect.any(Number), 100, 'g')]);
    });

    it('when a level was set then adjusted through the API, then its ledger lists both, newest first, with their Idempotency-Keys', async () => {
      const { key } = await seedShop(db, shopFixture());
      const first = await set(key, '2001', 12, 'kg', 'count-1');
      const second = await adjust(key, '2001', -1.25, 'kg', 'sale-1');
      await adjust(key, '2002', 100, 'g'); // another level: not listed

      const res = await get(key, ledgerPath({ variantId: '2001' }));

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          entries: [
            {
              id: expect.stringMatching(/^[0-9]+$/),
              operation: 'adjustment',
              delta: -1.25,
              quantityBefore: 12,
              quantityAfter: 10.75,
              unit: 'kg',
              reference: { type: 'idempotency_key', id: 'sale-1' },
              requestId: second.requestId,
              createdAt: expect.stringMatching(ISO_TIME),
            },
            {
              id: expect.stringMatching(/^[0-9]+$/),
              operation: 'set',
              delta: 12,
              quantityBefore: 0,
              quantityAfter: 12,
              unit: 'kg',
              reference: { type: 'idempotency_key', id: 'count-1' },
              requestId: first.requestId,
              createdAt: expect.stringMatching(ISO_TIME),
            },
          ],
        },
        error: null,
        meta: { nextCursor: null, prevCursor: null, hasMore: false },
        requestId: res.headers.get('x-request-id'),
      });
      const [newer, older] = res.body.data.entries;
      expect(BigInt(newer.id)).toBeGreaterThan(BigInt(older.id));
    });

    it('when stock was imported, then its ledger entry has the import reference and no request id', async () => {
      const fixture = shopFixture();
      const [product] = fixture.products!;
      product!.variants[0] = {
        ...product!.variants[0]!,
        inventory: [{ locationId: '70001', quantity: { value: 4.5, unit: 'kg' } }],
      };
      const { key } = await seedShop(db, fixture);

      const res = await get(key, ledgerPath({ variantId: '2001' }));

      expect(res.body.data.entries).toEqual([
        {
          id: expect.stringMatching(/^[0-9]+$/),
          operation: 'import',
          delta: 4.5,
          quantityBefore: 0,
          quantityAfter: 4.5,
          unit: 'kg',
          reference: { type: 'import', id: null },
          requestId: null,
          createdAt: expect.stringMatching(ISO_TIME),
        },
      ]);
    });

    it('when a level has no ledger yet, then the page is empty with no cursors', async () => {
      const { key } = await seedShop(db, shopFixture());

      const res = await get(key, ledgerPath({ variantId: '2003' }));

      expect(res.body.data).toEqual({ entries: [] });
      expect(res.body.meta).toEqual({ nextCursor: null, prevCursor: null, hasMore: false });
    });

    it('when paging through the ledger while new entries are written, then every entry comes once, in order, and prevCursor leads back', async () => {
      const { key } = await seedShop(db, shopFixture());
      for (let i = 1; i <= 7; i++) await adjust(key, '2001', i, 'kg');
      const deltas = (res: { body: any }) => res.body.data.entries.map((e: { delta: number }) => e.delta);

      const page1 = await get(key, ledgerPath({ variantId: '2001', limit: 3 }));
      expect(deltas(page1)).toEqual([7, 6, 5]);
      expect(page1.body.meta).toEqual({ nextCursor: expect.any(String), prevCursor: null, hasMore: true });

      await adjust(key, '2001', 8, 'kg');
      const page2 = await get(key, ledgerPath({ variantId: '2001', limit: 3, cursor: page1.body.meta.nextCursor }));
      expect(deltas(page2)).toEqual([4, 3, 2]);
      expect(page2.body.meta).toEqual({
        nextCursor: expect.any(String),
        prevCursor: expect.any(String),
        hasMore: true,
      });

      await adjust(key, '2001', 9, 'kg');
      const page3 = await get(key, ledgerPath({ variantId: '2001', limit: 3, cursor: page2.body.meta.nextCursor }));
      expect(deltas(page3)).toEqual([1]);
      expect(page3.body.meta).toEqual({ nextCursor: null, prevCursor: expect.any(String), hasMore: false });

      const ids = [page1, page2, page3].flatMap((p) => p.body.data.entries.map((e: { id: string }) => BigInt(e.id)));
      expect(new Set(ids).size).toBe(7);
      expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : 1)));

      // Back from page 2: page 1 again, and a prevCursor because entries 8 and 9 came since.
      const back = await get(key, ledgerPath({ variantId: '2001', limit: 3, cursor: page2.body.meta.prevCursor }));
      expect(back.body.data).toEqual(page1.body.data);
      expect(back.body.meta).toEqual({
        nextCursor: page1.body.meta.nextCursor,
        prevCursor: expect.any(String),
        hasMore: true,
      });
      const newest = await get(key, ledgerPath({ variantId: '2001', limit: 3, cursor: back.body.meta.prevCursor }));
      expect(deltas(newest)).toEqual([9, 8]);
    });
  });

  describe('errors', () => {
    it('when locationId is missing, then 400 names it', async () => {
      const { key } = await seedShop(db, shopFixture());

      expectQueryIssues(await get(key, '/api/v1/inventory/levels?variantId=2001'), [
        { path: '/locationId', message: 'is required' },
      ]);
      expectQueryIssues(await get(key, '/api/v1/inventory/ledger?variantId=2001'), [
        { path: '/locationId', message: 'is required' },
      ]);
    });

    it('when no variant id is sent, then 400', async () => {
      const { key } = await seedShop(db, shopFixture());

      expectQueryIssues(await get(key, levelsPath([])), [{ path: '/variantId', message: 'is required' }]);
      expectQueryIssues(await get(key, ledgerPath({})), [{ path: '/variantId', message: 'is required' }]);
    });

    it('when 101 variant ids are sent, then 400', async () => {
      const { key } = await seedShop(db, shopFixture());
      const ids = Array.from({ length: 101 }, (_, i) => String(4001 + i));

      expectQueryIssues(await get(key, levelsPath(ids)), [
        { path: '/variantId', message: 'must NOT have more than 100 items' },
      ]);
    });

    it('when an id is not a numeric id, then 400 points at it', async () => {
      const { key } = await seedShop(db, shopFixture());
      const message = 'must be a numeric id string of 1 to 20 digits';

      expectQueryIssues(await get(key, levelsPath(['2001', 'abc'])), [{ path: '/variantId/1', message }]);
      expectQueryIssues(await get(key, levelsPath(['2001'], '7000x')), [{ path: '/locationId', message }]);
      expectQueryIssues(await get(key, ledgerPath({ variantId: '1'.repeat(21) })), [{ path: '/variantId', message }]);
    });

    it('when a variant id is repeated, then 400 points at the repeat', async () => {
      const { key } = await seedShop(db, shopFixture());

      expectQueryIssues(await get(key, levelsPath(['2001', '2002', '2001'])), [
        { path: '/variantId/2', message: "variant '2001' already appears at /variantId/0" },
      ]);
    });

    it.each([
      ['0', 'must be >= 1'],
      ['101', 'must be <= 100'],
      ['1.5', 'must be integer'],
      ['ten', 'must be integer'],
    ])('when limit is %s, then 400', async (limit, message) => {
      const { key } = await seedShop(db, shopFixture());

      expectQueryIssues(await get(key, ledgerPath({ variantId: '2001', limit })), [{ path: '/limit', message }]);
    });

    it('when the cursor is not one this service issued, then 400', async () => {
      const { key } = await seedShop(db, shopFixture());
      for (let i = 0; i < 3; i++) await adjust(key, '2001', 1, 'kg');
      const page = await get(key, ledgerPath({ variantId: '2001', limit: 1 }));
      const cursor: string = page.body.meta.nextCursor;
      const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;

      for (const bad of ['garbage', tampered]) {
        expectQueryIssues(await get(key, ledgerPath({ variantId: '2001', cursor: bad })), [
          { path: '/cursor', message: 'is not a cursor this service issued' },
        ]);
      }
    });

    it('when the cursor belongs to another level or to a product, then 400', async () => {
      const { key } = await seedShop(db, shopFixture());
      for (let i = 0; i < 2; i++) await adjust(key, '2002', 1, 'g');
      const ledgerOf2002 = await get(key, ledgerPath({ variantId: '2002', limit: 1 }));
      const product = await get(key, '/api/v1/products/1001?limit=1');

      expectQueryIssues(await get(key, ledgerPath({ variantId: '2001', cursor: ledgerOf2002.body.meta.nextCursor })), [
        { path: '/cursor', message: 'belongs to the ledger of another level' },
      ]);
      expectQueryIssues(await get(key, ledgerPath({ variantId: '2001', cursor: product.body.meta.nextCursor })), [
        { path: '/cursor', message: 'is not a cursor this service issued' },
      ]);
    });

    it('when variants or the location are unknown, then 404 names them as the writes do', async () => {
      const { key } = await seedShop(db, shopFixture());

      const variants = expectErrorEnvelope(await get(key, levelsPath(['2001', '2999', '2998'])), 404, 'not_found');
      expect(variants.details).toEqual({ resource: 'variant', ids: ['2999', '2998'] });
      const location = expectErrorEnvelope(await get(key, levelsPath(['2001'], '70009')), 404, 'not_found');
      expect(location.details).toEqual({ resource: 'location', id: '70009' });

      const ledgerVariant = expectErrorEnvelope(await get(key, ledgerPath({ variantId: '2999' })), 404, 'not_found');
      expect(ledgerVariant.details).toEqual({ resource: 'variant', ids: ['2999'] });
      const ledgerLocation = expectErrorEnvelope(
        await get(key, ledgerPath({ locationId: '70009', variantId: '2001' })),
        404,
        'not_found',
      );
      expect(ledgerLocation.details).toEqual({ resource: 'location', id: '70009' });
    });
  });

  describe('security', () => {
    it('when no API key is sent, then 401', async () => {
      for (const path of [levelsPath(['2001']), ledgerPath({ variantId: '2001' })]) {
        const res = await get(undefined, path);
        expectErrorEnvelope(res, 401, 'unauthorized');
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
    });

    it('when another shop’s variant is named, then 404 as if it did not exist', async () => {
      await seedShop(db, otherShop());
      const { key } = await seedShop(db, shopFixture());

      const levels = expectErrorEnvelope(await get(key, levelsPath(['2001', '5001'])), 404, 'not_found');
      expect(levels.details).toEqual({ resource: 'variant', ids: ['5001'] });
      const ledger = expectErrorEnvelope(await get(key, ledgerPath({ variantId: '5001' })), 404, 'not_found');
      expect(ledger.details).toEqual({ resource: 'variant', ids: ['5001'] });
    });

    it('when a location only another shop has is named, then 404 as if it did not exist', async () => {
      await seedShop(db, { ...otherShop(), locations: [{ id: '70002', name: 'Elsewhere' }] });
      const { key } = await seedShop(db, shopFixture());

      const levels = expectErrorEnvelope(await get(key, levelsPath(['2001'], '70002')), 404, 'not_found');
      expect(levels.details).toEqual({ resource: 'location', id: '70002' });
      const ledger = expectErrorEnvelope(
        await get(key, ledgerPath({ locationId: '70002', variantId: '2001' })),
        404,
        'not_found',
      );
      expect(ledger.details).toEqual({ resource: 'location', id: '70002' });
    });

    it('when two shops hold the same ids, then each reads only its own stock and ledger', async () => {
      const mine = await seedShop(db, shopFixture());
      const theirs = await seedShop(db, shopFixture());
      await set(mine.key, '2001', 2, 'kg');
      await set(theirs.key, '2001', 9, 'kg');
      await adjust(theirs.key, '2001', 1, 'kg');

      const levels = await get(mine.key, levelsPath(['2001']));
      const ledger = await get(mine.key, ledgerPath({ variantId: '2001' }));

      expect(levels.body.data.levels).toEqual([level('2001', 2, 2, 0, 'kg')]);
      expect(ledger.body.data.entries.map((e: { quantityAfter: number }) => e.quantityAfter)).toEqual([2]);
    });

    it('when a cursor of another shop’s level with the same ids is sent, then 400 and nothing of that shop shows', async () => {
      const mine = await seedShop(db, shopFixture());
      const theirs = await seedShop(db, shopFixture());
      for (let i = 0; i < 3; i++) await adjust(theirs.key, '2001', 1, 'kg');
      await adjust(mine.key, '2001', 1, 'kg');
      const theirPage = await get(theirs.key, ledgerPath({ variantId: '2001', limit: 1 }));

      const res = await get(mine.key, ledgerPath({ variantId: '2001', cursor: theirPage.body.meta.nextCursor }));

      expectQueryIssues(res, [{ path: '/cursor', message: 'belongs to the ledger of another level' }]);
    });
  });
});

/** A 400 whose details list these issues of the query string. */
function expectQueryIssues(res: { status: number; headers: Headers; body: any }, errors: unknown[]) {
  const error = expectErrorEnvelope(res, 400, 'bad_request');
  expect(error.details).toEqual({ in: 'querystring', errors });
}
