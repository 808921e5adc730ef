import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/main.js';
import type { Db } from '../../server/src/store/db.js';
import { testDrivers } from '../../server/test/support/databases.js';
import { seedShop, shopFixture, startTestServer, variantFixture } from '../../server/test/support/harness.js';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  TareClient,
  type TareClientOptions,
} from '../src/index.js';

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  status: number | null;
}

/** A fetch that records every request it passes to the real fetch, and the status it got. */
function recordingFetch(log: Sent[], inner: typeof fetch = fetch) {
  return async (input: string, init: RequestInit): Promise<Response> => {
    const entry: Sent = { method: init.method ?? 'GET', url: input, headers: new Headers(init.headers), status: null };
    log.push(entry);
    const response = await inner(input, init);
    entry.status = response.status;
    return response;
  };
}

function envelopeResponse(status: number, code: string, headers: Record<string, string> = {}): Response {
  const body = {
    success: false,
    data: null,
    error: { code, message: code, details: null },
    meta: {},
    requestId: 'req_fake',
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_fake', ...headers },
  });
}

describe('TareClient against a real server', () => {
  let db: Db;
  let server: RunningServer;
  let key: string;
  let shopId: string;
  const sleeps: number[] = [];

  beforeAll(async () => {
    db = await testDrivers()[0]!.create();
    server = await startTestServer(db);
    const base = shopFixture();
    const fixture = {
      ...base,
      products: [
        ...(base.products ?? []),
        {
          id: '1003',
          title: 'Seven cuts',
          measurementType: 'weight' as const,
          variants: ['3001', '3002', '3003', '3004', '3005', '3006', '3007'].map((id) => variantFixture(id, 'kg', 1)),
        },
      ],
    };
    ({ key, shopId } = await seedShop(db, fixture));
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  function client(options: Partial<TareClientOptions> = {}): TareClient {
    return new TareClient({
      apiKey: key,
      baseUrl: server.url,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...options,
    });
  }

  async function ledgerRows(idempotencyKey: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM inventory_ledger WHERE shop_id = $1 AND idempotency_key = $2',
      [shopId, idempotencyKey],
    );
    return Number(rows[0]!.n);
  }

  describe('settings', () => {
    it('when called again inside max-age, then no request is sent; after expiry, then it revalidates with If-None-Match', async () => {
      const log: Sent[] = [];
      let clock = 1_000_000;
      const tare = client({ fetch: recordingFetch(log), now: () => clock });

      const first = await tare.settings.get({ locale: 'fr' });
      expect(first.meta.locale).toBe('fr');
      expect(Object.keys(first.data.settings.localizedLabels).length).toBeGreaterThan(0);
      expect(first.requestId).toMatch(/\S/);
      expect(log).toHaveLength(1);

      clock += 299_000;
      expect(await tare.settings.get({ locale: 'fr' })).toEqual(first);
      expect(log).toHaveLength(1);

      clock += 2_000;
      const revalidated = await tare.settings.get({ locale: 'fr' });
      expect(log).toHaveLength(2);
      expect(log[1]!.headers.get('if-none-match')).toBeTruthy();
      expect(log[1]!.status).toBe(304);
      expect(revalidated.data).toEqual(first.data);
      expect(revalidated.requestId).not.toBe(first.requestId);

      await tare.settings.get({ locale: 'fr' });
      expect(log).toHaveLength(2);
    });

    it('when locales differ, then each is cached separately', async () => {
      const log: Sent[] = [];
      const tare = client({ fetch: recordingFetch(log) });
      await tare.settings.get({ locale: 'en' });
      await tare.settings.get({ locale: 'de' });
      await tare.settings.get({ locale: 'en' });
      expect(log).toHaveLength(2);
    });
  });

  describe('catalogue', () => {
    it('when a product is fetched, then data, meta and requestId come back', async () => {
      const result = await client().products.get('1001', { limit: 2 });
      expect(result.data.product.id).toBe('1001');
      expect(result.data.product.variants.map((v) => v.id)).toEqual(['2001', '2002']);
      expect(result.meta.hasMore).toBe(true);
      expect(typeof result.meta.nextCursor).toBe('string');
      expect(result.requestId).toMatch(/\S/);
    });

    it('when iterating variants with limit 3 over 7, then all 7 come in order over 3 pages', async () => {
      const log: Sent[] = [];
      const ids: string[] = [];
      for await (const variant of client({ fetch: recordingFetch(log) }).products.variants('1003', { limit: 3 })) {
        ids.push(variant.id);
      }
      expect(ids).toEqual(['3001', '3002', '3003', '3004', '3005', '3006', '3007']);
      expect(log).toHaveLength(3);
    });

    it('when a variant is fetched, then it carries its product', async () => {
      const result = await client().variants.get('1001', '2002');
      expect(result.data.variant).toMatchObject({
        id: '2002',
        unitMeasurement: { unit: 'g', value: 100 },
        product: { id: '1001', measurementType: 'weight' },
      });
    });
  });

  describe('inventory writes', () => {
    it('when adjusting, then it is applied once and the result has data, requestId and replayed', async () => {
      const log: Sent[] = [];
      const result = await client({ fetch: recordingFetch(log) }).inventory.adjust({
        locationId: '70001',
        adjustments: [{ variantId: '2001', delta: { value: 1.25, unit: 'kg' } }],
      });
      expect(result.data.operation).toBe('adjustment');
      expect(result.data.results).toEqual([
        {
          variantId: '2001',
          status: 'updated',
          previousQuantity: expect.objectContaining({ unit: 'kg' }),
          quantity: expect.objectContaining({ unit: 'kg' }),
        },
      ]);
      const [entry] = result.data.results;
      expect(entry!.quantity.value - entry!.previousQuantity.value).toBeCloseTo(1.25, 9);
      expect(result.replayed).toBe(false);
      expect(result.requestId).toMatch(/\S/);
      const sentKey = log[0]!.headers.get('idempotency-key')!;
      expect(sentKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(await ledgerRows(sentKey)).toBe(1);
    });

    it('when the caller gives a key, then it is sent as is', async () => {
      const log: Sent[] = [];
      const result = await client({ fetch: recordingFetch(log) }).inventory.setLevels(
        { locationId: '70001', levels: [{ variantId: '2003', quantity: { value: 4, unit: 'lb' } }] },
        { idempotencyKey: 'erp-sync-42' },
      );
      expect(result.data.operation).toBe('set');
      expect(log[0]!.headers.get('idempotency-key')).toBe('erp-sync-42');
    });

    it('when the first connection drops before the request is sent, then the retry is applied once with the same key', async () => {
      const log: Sent[] = [];
      let dropped = false;
      const flaky = async (input: string, init: RequestInit) => {
        log.push({ method: init.method ?? 'GET', url: input, headers: new Headers(init.headers), status: null });
        if (!dropped) {
          dropped = true;
          throw new TypeError('fetch failed');
        }
        return fetch(input, init);
      };
      const tare = client({ fetch: flaky });
      const before = await tare.variants.get('1001', '2002');
      expect(before.data.variant.id).toBe('2002');
      dropped = false;
      log.length = 0;
      const result = await tare.inventory.adjust({
        locationId: '70001',
        adjustments: [{ variantId: '2002', delta: { value: 300, unit: 'g' } }],
      });
      expect(log).toHaveLength(2);
      const keys = log.map((entry) => entry.headers.get('idempotency-key'));
      expect(keys[0]).toBeTruthy();
      expect(keys[1]).toBe(keys[0]);
      expect(result.replayed).toBe(false);
      expect(await ledgerRows(keys[0]!)).toBe(1);
    });

    it('when the answer is lost after the server applied the write, then the retry is replayed, not applied again', async () => {
      const log: Sent[] = [];
      let lost = false;
      const losing = async (input: string, init: RequestInit) => {
        log.push({ method: init.method ?? 'GET', url: input, headers: new Headers(init.headers), status: null });
        const response = await fetch(input, init);
        if (!lost) {
          lost = true;
          await response.arrayBuffer();
          throw new TypeError('socket hang up');
        }
        return response;
      };
      const tare = client({ fetch: losing });
      const result = await tare.inventory.adjust({
        locationId: '70001',
        adjustments: [{ variantId: '2001', delta: { value: -0.5, unit: 'kg' } }],
      });
      expect(log).toHaveLength(2);
      const sentKey = log[0]!.headers.get('idempotency-key')!;
      expect(log[1]!.headers.get('idempotency-key')).toBe(sentKey);
      expect(result.replayed).toBe(true);
      expect(await ledgerRows(sentKey)).toBe(1);

      // A second write sees the level the first left: it moved by -0.5 kg once, not twice.
      const again = await tare.inventory.adjust({
        locationId: '70001',
        adjustments: [{ variantId: '2001', delta: { value: 0.5, unit: 'kg' } }],
      });
      expect(again.data.results[0]!.previousQuantity.value).toBeCloseTo(result.data.results[0]!.quantity.value, 9);
    });

    it('when the server answers 503 once, then the retry is applied once', async () => {
      const log: Sent[] = [];
      let failed = false;
      const unavailable = async (input: string, init: RequestInit) => {
        log.push({ method: init.method ?? 'GET', url: input, headers: new Headers(init.headers), status: null });
        if (!failed) {
          failed = true;
          return envelopeResponse(503, 'platform_unavailable');
        }
        return fetch(input, init);
      };
      const before = sleeps.length;
      const result = await client({ fetch: unavailable, random: () => 0.5 }).inventory.adjust({
        locationId: '70001',
        adjustments: [{ variantId: '2003', delta: { value: 1, unit: 'lb' } }],
      });
      expect(result.data.results).toHaveLength(1);
      expect(log).toHaveLength(2);
      expect(sleeps.slice(before)).toEqual([125]);
      const sentKey = log[0]!.headers.get('idempotency-key')!;
      expect(log[1]!.headers.get('idempotency-key')).toBe(sentKey);
      expect(await ledgerRows(sentKey)).toBe(1);
    });
  });

  describe('inventory reads', () => {
    it('when levels are read, then they come in the order asked, the ids sent as a repeated parameter', async () => {
      const log: Sent[] = [];
      const tare = client({ fetch: recordingFetch(log) });
      await tare.inventory.setLevels({
        locationId: '70001',
        levels: [{ variantId: '3001', quantity: { value: 2.5, unit: 'kg' } }],
      });

      const result = await tare.inventory.levels({ locationId: '70001', variantIds: ['3002', '3001'] });

      expect(new URL(log[1]!.url).search).toBe('?locationId=70001&variantId=3002&variantId=3001');
      expect(result.data.levels).toEqual([
        {
          variantId: '3002',
          locationId: '70001',
          quantity: { value: 0, unit: 'kg' },
          platform: { available: 0 },
          fraction: { value: 0, unit: 'kg' },
          updatedAt: null,
        },
        {
          variantId: '3001',
          locationId: '70001',
          quantity: { value: 2.5, unit: 'kg' },
          platform: { available: 2 },
          fraction: { value: 0.5, unit: 'kg' },
          updatedAt: expect.any(String),
        },
      ]);
      expect(result.requestId).toMatch(/\S/);
    });

    it('when iterating a ledger of 5 entries with limit 2, then all 5 come newest first over 3 pages', async () => {
      const tare = client();
      for (let i = 1; i <= 5; i++) {
        await tare.inventory.adjust(
          { locationId: '70001', adjustments: [{ variantId: '3003', delta: { value: i, unit: 'kg' } }] },
          { idempotencyKey: `ledger-${shopId}-${i}` },
        );
      }
      const log: Sent[] = [];
      const entries = [];
      for await (const entry of client({ fetch: recordingFetch(log) }).inventory.ledger({
        locationId: '70001',
        variantId: '3003',
        limit: 2,
      })) {
        entries.push(entry);
      }
      expect(entries.map((e) => e.delta)).toEqual([5, 4, 3, 2, 1]);
      expect(entries[0]).toMatchObject({
        operation: 'adjustment',
        quantityAfter: 15,
        unit: 'kg',
        reference: { type: 'idempotency_key', id: `ledger-${shopId}-5` },
      });
      expect(log).toHaveLength(3);
    });

    it('when one ledger page is asked for, then it has the entries and the cursors to the next', async () => {
      const tare = client();
      await tare.inventory.adjust({
        locationId: '70001',
        adjustments: [{ variantId: '3004', delta: { value: 1, unit: 'kg' } }],
      });
      await tare.inventory.adjust({
        locationId: '70001',
        adjustments: [{ variantId: '3004', delta: { value: 2, unit: 'kg' } }],
      });

      const first = await tare.inventory.ledgerPage({ locationId: '70001', variantId: '3004', limit: 1 });
      const second = await tare.inventory.ledgerPage({
        locationId: '70001',
        variantId: '3004',
        limit: 1,
        cursor: first.meta.nextCursor ?? undefined,
      });

      expect(first.data.entries.map((e) => e.delta)).toEqual([2]);
      expect(first.meta).toEqual({ nextCursor: expect.any(String), prevCursor: null, hasMore: true });
      expect(second.data.entries.map((e) => e.delta)).toEqual([1]);
      expect(second.meta).toEqual({ nextCursor: null, prevCursor: expect.any(String), hasMore: false });
    });

    it('when the variant is unknown, then NotFoundError names it', async () => {
      const error = await client()
        .inventory.levels({ locationId: '70001', variantIds: ['2999'] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).details).toEqual({ resource: 'variant', ids: ['2999'] });
    });
  });

  describe('errors', () => {
    it('when the key is wrong, then AuthenticationError carries code, status and requestId', async () => {
      const error = await client({ apiKey: 'apik_aaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' })
        .products.get('1001')
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
      expect((error as AuthenticationError).requestId).toMatch(/\S/);
      expect((error as AuthenticationError).headers.get('www-authenticate')).toMatch(/Bearer/);
    });

    it('when the product does not exist, then NotFoundError', async () => {
      const error = await client()
        .products.get('999999')
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('when the request is invalid, then BadRequestError with details.errors and no retry', async () => {
      const log: Sent[] = [];
      const error = await client({ fetch: recordingFetch(log) })
        .inventory.adjust({
          locationId: '70001',
          adjustments: [{ variantId: '2001', delta: { value: 1, unit: 'm' } }],
        })
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BadRequestError);
      const details = (error as BadRequestError).details as { errors: Array<{ path: string; message: string }> };
      expect(details.errors[0]!.path).toBe('/adjustments/0/delta/unit');
      expect(log).toHaveLength(1);
    });

    it('when a path id is malformed, then BadRequestError', async () => {
      const error = await client()
        .products.get('abc')
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).details).toHaveProperty('errors');
    });

    it('when rate limited, then the retry waits Retry-After seconds', async () => {
      const log: Sent[] = [];
      let limited = false;
      const limiting = async (input: string, init: RequestInit) => {
        log.push({ method: init.method ?? 'GET', url: input, headers: new Headers(init.headers), status: null });
        if (!limited) {
          limited = true;
          return envelopeResponse(429, 'rate_limited', { 'retry-after': '3' });
        }
        return fetch(input, init);
      };
      const before = sleeps.length;
      const result = await client({ fetch: limiting }).products.get('1001');
      expect(result.data.product.id).toBe('1001');
      expect(sleeps.slice(before)).toEqual([3000]);
      expect(log).toHaveLength(2);
    });

    it('when rate limited past maxRetries, then RateLimitError with retryAfter', async () => {
      const log: Sent[] = [];
      const always = async (input: string, init: RequestInit) => {
        log.push({ method: init.method ?? 'GET', url: input, headers: new Headers(init.headers), status: null });
        return envelopeResponse(429, 'rate_limited', { 'retry-after': '1' });
      };
      const error = await client({ fetch: always, maxRetries: 1 })
        .products.get('1001')
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryAfter: 1, requestId: 'req_fake' });
      expect(log).toHaveLength(2);
    });

    it('when the network keeps failing, then ConnectionError after maxRetries with capped jittered backoff', async () => {
      let calls = 0;
      const before = sleeps.length;
      const error = await client({
        maxRetries: 2,
        random: () => 0.999,
        fetch: async () => {
          calls++;
          throw new TypeError('fetch failed');
        },
      })
        .products.get('1001')
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ code: 'connection_error', status: null, timedOut: false });
      expect(calls).toBe(3);
      expect(sleeps.slice(before)).toEqual([249, 499]);
    });

    it('when the server is slower than timeoutMs, then ConnectionError with timedOut', async () => {
      const hanging = (_input: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        });
      const error = await client({ fetch: hanging, timeoutMs: 20, maxRetries: 0 })
        .products.get('1001')
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ timedOut: true });
    });
  });
});
