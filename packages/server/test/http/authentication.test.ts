import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateKey, hashSecret } from '../../src/domain/api-key.js';
import type { RunningServer } from '../../src/main.js';
import { createApiKey, createAuthenticator, revokeKey } from '../../src/services/api-keys.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { type TestDriver, testDrivers } from '../support/databases.js';
import {
  call,
  expectErrorEnvelope,
  seedShop,
  shopFixture,
  startTestServer,
  variantFixture,
} from '../support/harness.js';

// The real generator, which a test can make hand out a key it chose (one probed before it existed).
vi.mock('../../src/domain/api-key.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/domain/api-key.js')>();
  return { ...actual, generateKey: vi.fn(actual.generateKey) };
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The one answer for every credential problem (PRODUCT.md §3, §4). */
const UNAUTHORIZED = { code: 'unauthorized', message: 'A valid API key is required.', details: null };

type Answer = Awaited<ReturnType<typeof call>>;

function expectUnauthorized(res: Answer) {
  const error = expectErrorEnvelope(res, 401, 'unauthorized');
  expect(error).toEqual(UNAUTHORIZED);
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
}

/** A shop whose only product has an id no other test uses, so a 200 proves whose key it was. */
async function seedOwnShop(db: Db) {
  const productId = String(randomInt(10_000_000, 99_999_999));
  const shop = shopFixture({
    products: [{ id: productId, title: 'Own', measurementType: 'weight', variants: [variantFixture('2001', 'kg', 1)] }],
  });
  return { ...(await seedShop(db, shop)), productId };
}

const secretOf = (token: string) => token.slice('apik_'.length + 16 + 1);

/** The Db with a count of its key lookups (queries on api_keys other than writes). */
function countingLookups(db: Db): { db: Db; lookups: () => number } {
  let lookups = 0;
  const counted: Db = {
    ...db,
    query(sql, params) {
      if (/^\s*SELECT[\s\S]*\bFROM api_keys\b/.test(sql)) lookups++;
      return db.query(sql, params);
    },
  };
  return { db: counted, lookups: () => lookups };
}

/** `app.inject` from a given client address, answered in `call`'s shape. */
async function callFrom(server: RunningServer, address: string, path: string, key?: string): Promise<Answer> {
  const res = await server.app.inject({
    method: 'GET',
    url: path,
    remoteAddress: address,
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
  return { status: res.statusCode, headers, body: res.json(), text: res.body };
}

/**
 * Two app instances on one store: on PGlite (one process per data dir) two servers on the same
 * Db; on PostgreSQL and Citus two pools on the same database, as two processes would have.
 */
async function sharedStore(driver: TestDriver): Promise<{ first: Db; second: Db; close(): Promise<void> }> {
  if (!driver.database) {
    const db = await driver.create();
    return { first: db, second: db, close: () => db.close() };
  }
  const database = await driver.database();
  const first = await openPostgres({ connectionString: database.url });
  const second = await openPostgres({ connectionString: database.url });
  return {
    first,
    second,
    async close() {
      await first.close();
      await second.close();
      await database.drop();
    },
  };
}

describe.each(testDrivers({ citus: true }))('Authentication on $name', (driver) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const getProduct = (productId: string, headers: Record<string, string> = {}) =>
    call(server, `/api/v1/products/${productId}`, { headers });

  const lastUsedAt = async (keyId: string): Promise<Date | null> => {
    const { rows } = await db.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [
      keyId,
    ]);
    expect(rows).toHaveLength(1);
    return rows[0]!.last_used_at;
  };

  /** Writes whatever the recorder holds; twice, in case its own timer was mid-flush with older keys. */
  const flushUsage = async () => {
    await server.services.keyUsage.flush();
    await server.services.keyUsage.flush();
  };

  describe('happy', () => {
    it('when the key is sent as Bearer apik_<keyId>_<secret>, then the request is served for its shop', async () => {
      const shop = await seedOwnShop(db);
      const res = await getProduct(shop.productId, { authorization: `Bearer ${shop.key}` });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.product.id).toBe(shop.productId);
    });

    it('when the same key is written as <keyId>:<secret>, then it is accepted too', async () => {
      const shop = await seedOwnShop(db);
      const res = await getProduct(shop.productId, { authorization: `Bearer ${shop.keyId}:${secretOf(shop.key)}` });
      expect(res.status).toBe(200);
      expect(res.body.data.product.id).toBe(shop.productId);
    });

    it.each(['bearer', 'BEARER', 'Bearer  '])(
      'when the scheme is spelled %j, then it is accepted (schemes are case-insensitive)',
      async (scheme) => {
        const shop = await seedOwnShop(db);
        const res = await getProduct(shop.productId, { authorization: `${scheme} ${shop.key}` });
        expect(res.status).toBe(200);
        expect(res.body.data.product.id).toBe(shop.productId);
      },
    );

    it('when a key is used, then lastUsedAt is written off the request path, at most once a minute', async () => {
      const shop = await seedOwnShop(db);
      expect(await lastUsedAt(shop.keyId)).toBeNull();

      const before = Date.now();
      expect((await getProduct(shop.productId, { authorization: `Bearer ${shop.key}` })).status).toBe(200);
      await flushUsage();
      const first = await lastUsedAt(shop.keyId);
      expect(first).toBeInstanceOf(Date);
      expect(first!.getTime()).toBeGreaterThanOrEqual(before);
      expect(first!.getTime()).toBeLessThanOrEqual(Date.now());

      expect((await getProduct(shop.productId, { authorization: `Bearer ${shop.key}` })).status).toBe(200);
      await flushUsage();
      expect(await lastUsedAt(shop.keyId)).toEqual(first);
    });
  });

  describe('errors', () => {
    const unknownKey = generateKey().token;
    it.each<[string, Record<string, string>]>([
      ['no Authorization header', {}],
      ['Bearer with nothing after it', { authorization: 'Bearer' }],
      ['the Basic scheme', { authorization: 'Basic dXNlcjpwYXNzd29yZA==' }],
      ['a token that is not a key', { authorization: 'Bearer not-a-key' }],
      ['a key whose keyId is too short', { authorization: `Bearer apik_abc_${'A'.repeat(43)}` }],
      ['a key whose keyId has upper case', { authorization: `Bearer apik_ABCDEFGHIJKLMNOP_${'A'.repeat(43)}` }],
      ['a key whose secret is too short', { authorization: `Bearer apik_abcdefghijklmnop_${'A'.repeat(31)}` }],
      ['a key whose secret is not base62', { authorization: `Bearer apik_abcdefghijklmnop_${'A'.repeat(42)}-` }],
      ['a <keyId>:<secret> with an empty secret', { authorization: 'Bearer abcdefghijklmnop:' }],
      ['two tokens after Bearer', { authorization: `Bearer ${unknownKey} ${unknownKey}` }],
      ['a well-formed key that was never issued', { authorization: `Bearer ${unknownKey}` }],
    ])('when the request carries %s, then it is 401 unauthorized', async (_case, headers) => {
      const shop = await seedOwnShop(db);
      expectUnauthorized(await getProduct(shop.productId, headers));
    });

    it('when a real key is sent under another scheme or with no scheme, then it is 401 unauthorized', async () => {
      const shop = await seedOwnShop(db);
      expectUnauthorized(await getProduct(shop.productId, { authorization: `Basic ${shop.key}` }));
      expectUnauthorized(await getProduct(shop.productId, { authorization: `Token ${shop.key}` }));
      expectUnauthorized(await getProduct(shop.productId, { authorization: shop.key }));
    });

    it('when the route does not exist, then it is 404 not_found with or without a key, never 401', async () => {
      expectErrorEnvelope(await call(server, '/api/v1/nothing-here'), 404, 'not_found');
      expectErrorEnvelope(await call(server, '/api/v1/nothing-here', { key: 'garbage' }), 404, 'not_found');
    });
  });

  describe('security', () => {
    it('when the keyId is right but the secret is wrong, then it is 401 and usage is not recorded', async () => {
      const shop = await seedOwnShop(db);
      const wrong = `apik_${shop.keyId}_${'A'.repeat(43)}`;
      expectUnauthorized(await getProduct(shop.productId, { authorization: `Bearer ${wrong}` }));
      expectUnauthorized(await getProduct(shop.productId, { authorization: `Bearer ${shop.keyId}:${'B'.repeat(43)}` }));
      // One character off at the end, in both spellings.
      const secret = secretOf(shop.key);
      const lastFlipped = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
      expectUnauthorized(
        await getProduct(shop.productId, { authorization: `Bearer apik_${shop.keyId}_${lastFlipped}` }),
      );
      expectUnauthorized(await getProduct(shop.productId, { authorization: `Bearer ${shop.keyId}:${lastFlipped}` }));
      await flushUsage();
      expect(await lastUsedAt(shop.keyId)).toBeNull();
    });

    it('when a verified key comes back with its secret altered, even to characters of the same low byte, then it is 401', async () => {
      const shop = await seedOwnShop(db);
      const path = `/api/v1/products/${shop.productId}`;
      expect((await callFrom(server, '192.0.2.7', path, shop.key)).status).toBe(200); // cached and verified
      const secret = secretOf(shop.key);
      const last = secret.charCodeAt(secret.length - 1);
      const altered = [
        `${secret.slice(0, -1)}${String.fromCharCode(0x100 + last)}`, // one byte in latin1, another in UTF-8
        `${secret.slice(0, -2)}é`, // as many UTF-8 bytes as the secret has characters
        `${secret.slice(0, -2)}é${secret.slice(-1)}`, // as many characters as the secret
        `${secret.slice(0, -1)}`,
        `${secret}${secret.slice(-1)}`,
        `${secret.slice(0, -2)}${secret.slice(-1)}${secret.slice(-2, -1)}`,
      ].filter((text) => text !== secret);
      for (const text of altered)
        expectUnauthorized(await callFrom(server, '192.0.2.7', path, `apik_${shop.keyId}_${text}`));
      expect((await callFrom(server, '192.0.2.7', path, shop.key)).status).toBe(200);
    });

    it('when a key is revoked, then its next request is 401 with the same answer as any bad key', async () => {
      const shop = await seedOwnShop(db);
      const auth = { authorization: `Bearer ${shop.key}` };
      expect((await getProduct(shop.productId, auth)).status).toBe(200); // warms any key cache
      await revokeKey(db, shop.keyId);
      expectUnauthorized(await getProduct(shop.productId, auth));
      expectUnauthorized(
        await getProduct(shop.productId, { authorization: `Bearer ${shop.keyId}:${secretOf(shop.key)}` }),
      );
    });

    it('when a key expires, then requests after its expiry are 401', async () => {
      const shop = await seedOwnShop(db);
      const expiresAt = new Date(Date.now() + 1500);
      const created = await createApiKey(db, { shopDomain: shop.domain, expiresAt });
      const auth = { authorization: `Bearer ${created.token}` };
      expect((await getProduct(shop.productId, auth)).status).toBe(200);
      await sleep(expiresAt.getTime() - Date.now() + 100);
      expectUnauthorized(await getProduct(shop.productId, auth));
      // The shop's other key is untouched.
      expect((await getProduct(shop.productId, { authorization: `Bearer ${shop.key}` })).status).toBe(200);
    });

    it('when credentials fail for different reasons, then the answers are indistinguishable', async () => {
      const shop = await seedOwnShop(db);
      const revoked = await createApiKey(db, { shopDomain: shop.domain });
      await revokeKey(db, revoked.keyId);
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer garbage' },
        { authorization: `Bearer ${generateKey().token}` },
        { authorization: `Bearer apik_${shop.keyId}_${'A'.repeat(43)}` },
        { authorization: `Bearer ${revoked.token}` },
      ];
      const answers = await Promise.all(attempts.map((headers) => getProduct(shop.productId, headers)));
      const shapes = answers.map((res) => ({
        status: res.status,
        wwwAuthenticate: res.headers.get('www-authenticate'),
        error: res.body.error,
        length: res.text.length - res.body.requestId.length,
      }));
      for (const shape of shapes) expect(shape).toEqual(shapes[0]);
      expect(shapes[0]).toMatchObject({ status: 401, wwwAuthenticate: 'Bearer', error: UNAUTHORIZED });
    });
  });

  describe('work per failure', () => {
    /** An authenticator over the suite's store counting its key lookups and secret hashes. */
    function counted(cacheTtlMs: number) {
      const store = countingLookups(db);
      let hashes = 0;
      const authenticator = createAuthenticator({
        db: store.db,
        cacheTtlMs,
        hashSecret: (secret) => {
          hashes++;
          return hashSecret(secret);
        },
      });
      /** Authenticates, expecting a 401, and returns the work it took. */
      const failure = async (token: string) => {
        const before = { lookups: store.lookups(), hashes };
        await expect(authenticator.authenticate(token)).rejects.toMatchObject({ code: 'unauthorized' });
        return { lookups: store.lookups() - before.lookups, hashes: hashes - before.hashes };
      };
      return { authenticator, failure };
    }

    // 60 s is the key cache of PGlite, 0 that of PostgreSQL (where every request looks its key up).
    it.each([60_000, 0])(
      'when the keyId is unknown or the secret wrong (key cache %i ms), then the failure does the same work',
      async (cacheTtlMs) => {
        const { authenticator, failure } = counted(cacheTtlMs);
        const known = await seedOwnShop(db);
        const knownCold = await seedOwnShop(db);
        const wrongSecret = (keyId: string) => `apik_${keyId}_${'A'.repeat(43)}`;
        const unknown = generateKey().token;

        // First sight of an id: one lookup and one hash, whether the id exists or not.
        const cold = { lookups: 1, hashes: 1 };
        expect(await failure(wrongSecret(knownCold.keyId))).toEqual(cold);
        expect(await failure(unknown)).toEqual(cold);

        // Seen before (the known key also in use): a cache hit or a lookup, and one hash, alike.
        await authenticator.authenticate(known.key);
        const again = { lookups: cacheTtlMs > 0 ? 0 : 1, hashes: 1 };
        for (let i = 0; i < 3; i++) {
          expect(await failure(wrongSecret(known.keyId))).toEqual(again);
          expect(await failure(wrongSecret(knownCold.keyId))).toEqual(again);
          expect(await failure(unknown)).toEqual(again);
        }
      },
    );

    it('when a key changes while its lookup is in flight, then the answer read before is not cached', async () => {
      const shop = await seedOwnShop(db);
      const store = countingLookups(db);
      let onLookup: (() => void) | undefined;
      const authenticator = createAuthenticator({
        db: {
          ...store.db,
          // The change's notification arrives between the query's answer and the caching of it.
          query: (sql, params) =>
            store.db.query(sql, params).then((result) => {
              onLookup?.();
              return result as never;
            }),
        },
        cacheTtlMs: 60_000,
      });
      onLookup = () => authenticator.forget(shop.keyId);
      await authenticator.authenticate(shop.key);
      onLookup = undefined;
      await authenticator.authenticate(shop.key);
      expect(store.lookups()).toBe(2);
    });
  });

  describe('failed authentications per client address', () => {
    const flooder = '203.0.113.7';
    const elsewhere = '198.51.100.9';
    let store: ReturnType<typeof countingLookups>;
    let counted: RunningServer;

    beforeAll(async () => {
      store = countingLookups(db);
      counted = await startTestServer(store.db);
    });

    afterAll(async () => {
      await counted?.close();
    });

    // The exact budget, refill and Retry-After are tested on a clock in authenticate.test.ts;
    // here the budget refills one token a second of real time, so the test only counts on
    // "at least 60 failures, then 429s that look nothing up".
    it('when one address floods bad keys, then after 60+ failures it gets 429 without lookups; other keys still work', async () => {
      const shop = await seedOwnShop(db);
      const path = `/api/v1/products/${shop.productId}`;
      const neighbour = await seedOwnShop(db);
      const neighbourPath = `/api/v1/products/${neighbour.productId}`;
      // The flooder's own good key, verified before the flood.
      expect((await callFrom(counted, flooder, path, shop.key)).status).toBe(200);

      let unauthorized = 0;
      let limited = 0;
      while (limited < 20) {
        expect(unauthorized).toBeLessThan(200);
        const lookupsBefore = store.lookups();
        const res = await callFrom(counted, flooder, path, generateKey().token);
        if (res.status === 401) {
          expectUnauthorized(res);
          unauthorized++;
          continue;
        }
        const error = expectErrorEnvelope(res, 429, 'rate_limited');
        expect(res.headers.get('retry-after')).toBe('1'); // 60 a minute: the next token within a second
        expect(error.details).toEqual({ retryAfterSeconds: 1 });
        expect(store.lookups()).toBe(lookupsBefore);
        limited++;
      }
      expect(unauthorized).toBeGreaterThanOrEqual(60);

      // Another address: its keys, good and bad, are looked at as ever.
      expect((await callFrom(counted, elsewhere, neighbourPath, neighbour.key)).status).toBe(200);
      expectUnauthorized(await callFrom(counted, elsewhere, neighbourPath, generateKey().token));
      // The flooder's own key is served where this instance holds it verified in memory (PGlite's
      // key cache): that costs no lookup, so the budget has nothing to save.
      if (driver.name === 'pglite') expect((await callFrom(counted, flooder, path, shop.key)).status).toBe(200);
    });
  });

  describe('across instances', () => {
    let store: Awaited<ReturnType<typeof sharedStore>>;
    let first: RunningServer;
    let second: RunningServer;

    beforeAll(async () => {
      store = await sharedStore(driver);
      first = await startTestServer(store.first);
      second = await startTestServer(store.second);
    });

    afterAll(async () => {
      await first?.close();
      await second?.close();
      await store?.close();
    });

    it('when a key is revoked through one instance, then the very next request on another instance is 401', async () => {
      const shop = await seedOwnShop(store.first);
      const auth = { authorization: `Bearer ${shop.key}` };
      const path = `/api/v1/products/${shop.productId}`;
      // Authenticate on both first, so any per-instance key cache is warm.
      for (const instance of [first, second, first, second]) {
        expect((await call(instance, path, { headers: auth })).status).toBe(200);
      }
      await revokeKey(store.first, shop.keyId);
      expectUnauthorized(await call(second, path, { headers: auth }));
      expectUnauthorized(await call(first, path, { headers: auth }));
    });

    it('when a key is created through one instance, then another instance accepts it at once', async () => {
      const shop = await seedOwnShop(store.first);
      const path = `/api/v1/products/${shop.productId}`;
      expect((await call(second, path, { headers: { authorization: `Bearer ${shop.key}` } })).status).toBe(200);
      const fresh = await createApiKey(store.first, { shopDomain: shop.domain });
      expect((await call(second, path, { headers: { authorization: `Bearer ${fresh.token}` } })).status).toBe(200);
    });

    it('when a key is created with an id that was probed before, then every instance accepts it at once', async () => {
      const shop = await seedOwnShop(store.first);
      const path = `/api/v1/products/${shop.productId}`;
      const key = generateKey();
      const auth = { headers: { authorization: `Bearer ${key.token}` } };
      // Unknown yet: any cache of unknown ids now holds it on both instances.
      for (const instance of [first, second]) expectUnauthorized(await call(instance, path, auth));
      vi.mocked(generateKey).mockReturnValueOnce(key);
      expect((await createApiKey(store.first, { shopDomain: shop.domain })).keyId).toBe(key.keyId);
      expect((await call(second, path, auth)).status).toBe(200);
      expect((await call(first, path, auth)).status).toBe(200);
    });
  });
});
