import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '../../errors.js';
import type { Authenticator, Principal } from '../../services/api-keys.js';
import type { KeyUsageRecorder } from '../../services/key-usage.js';
import { registerAuthentication } from './authenticate.js';
import { registerErrorHandling } from './errors.js';
import { createFailureBudget } from './failure-budget.js';
import type { RateLimitStore } from './rate-limit.js';

const redisUrl = process.env.TEST_REDIS_URL;

const PRINCIPAL: Principal = { keyId: 'abcdefghijklmnop', shopId: 'shop-a', keyName: null };

/**
 * Keys: `good` authenticates through a lookup, `warm` from memory (as a key this instance has
 * verified before), anything else fails. `lookups` counts the calls that would reach the store.
 */
function fakeAuthenticator() {
  const counts = { lookups: 0 };
  const authenticator = {
    authenticateCached: (presented: string) => (presented === 'warm' ? PRINCIPAL : undefined),
    async authenticate(presented: string | undefined) {
      counts.lookups++;
      if (presented === 'good' || presented === 'warm') return PRINCIPAL;
      throw errors.unauthorized();
    },
    forget() {},
  } as unknown as Authenticator;
  return { authenticator, counts };
}

const keyUsage = { record() {} } as unknown as KeyUsageRecorder;

function clock() {
  let t = 1_700_000_000_000;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

/** 3 failures a minute: one token every 20 s. */
async function buildTestApp(store: RateLimitStore, authenticator: Authenticator, now?: () => number) {
  const app = Fastify({ logger: false });
  registerErrorHandling(app, { bodyLimit: 1024 });
  await app.register(async (api) => {
    registerAuthentication(api, {
      authenticator,
      keyUsage,
      failureBudget: createFailureBudget(store, { perMinute: 3, now }),
    });
    api.get('/things', async () => ({ ok: true }));
  });
  return app;
}

function call(app: FastifyInstance, address: string, key: string) {
  return app.inject({
    method: 'GET',
    url: '/things',
    remoteAddress: address,
    headers: { authorization: `Bearer ${key}` },
  });
}

async function statuses(app: FastifyInstance, address: string, key: string, count: number) {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await call(app, address, key)).statusCode);
  return result;
}

let redis: Redis | undefined;
const usedAddresses: string[] = [];
function redisClient() {
  redis ??= new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
  return redis;
}
/** A documentation-range IPv6 address of this run's own, so runs sharing a Redis stay apart. */
function newAddress() {
  const hex = randomBytes(8).toString('hex');
  const address = `2001:db8:${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 12)}:${hex.slice(12)}::1`;
  usedAddresses.push(`tare:rl:auth-failures:${address}`);
  return address;
}

afterAll(async () => {
  if (redis && usedAddresses.length) await redis.del(...usedAddresses);
  redis?.disconnect();
});

const backends: { name: string; store: () => RateLimitStore; enabled: boolean }[] = [
  { name: 'memory', store: () => ({ kind: 'memory' }), enabled: true },
  { name: 'redis', store: () => ({ kind: 'redis', client: redisClient() }), enabled: Boolean(redisUrl) },
];

for (const backend of backends) {
  describe.runIf(backend.enabled)(`failed authentications per address (${backend.name} store)`, () => {
    const apps: FastifyInstance[] = [];
    async function app(authenticator: Authenticator, now?: () => number) {
      const built = await buildTestApp(backend.store(), authenticator, now);
      apps.push(built);
      return built;
    }
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
    });

    it('when an address has failed 3 times, then it is 429 with Retry-After before any lookup', async () => {
      const { authenticator, counts } = fakeAuthenticator();
      const server = await app(authenticator, clock().now);
      const address = newAddress();
      expect(await statuses(server, address, 'bad', 3)).toEqual([401, 401, 401]);
      expect(counts.lookups).toBe(3);

      const limited = await call(server, address, 'bad');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('20');
      const body = limited.json();
      expect(body).toMatchObject({
        success: false,
        data: null,
        error: { code: 'rate_limited', details: { retryAfterSeconds: 20 } },
      });
      expect(body.requestId).toEqual(expect.any(String));
      expect(limited.headers['www-authenticate']).toBeUndefined();
      // A key that would need a lookup waits too, good or bad; nothing reaches the store.
      expect(await statuses(server, address, 'bad', 5)).toEqual([429, 429, 429, 429, 429]);
      expect(await statuses(server, address, 'good', 1)).toEqual([429]);
      expect(counts.lookups).toBe(3);
      // A key verified in memory costs no lookup, so it is served.
      expect(await statuses(server, address, 'warm', 2)).toEqual([200, 200]);
    });

    it('when another address calls, then it has its own budget', async () => {
      const { authenticator } = fakeAuthenticator();
      const server = await app(authenticator, clock().now);
      const flooder = newAddress();
      expect(await statuses(server, flooder, 'bad', 4)).toEqual([401, 401, 401, 429]);
      const other = newAddress();
      expect(await statuses(server, other, 'good', 5)).toEqual([200, 200, 200, 200, 200]);
      expect(await statuses(server, other, 'bad', 4)).toEqual([401, 401, 401, 429]);
    });

    it('when good keys succeed, then they spend nothing of the budget', async () => {
      const { authenticator } = fakeAuthenticator();
      const server = await app(authenticator, clock().now);
      const address = newAddress();
      expect(new Set(await statuses(server, address, 'good', 20))).toEqual(new Set([200]));
      expect(await statuses(server, address, 'bad', 4)).toEqual([401, 401, 401, 429]);
    });

    it('when time passes, then each new token buys one more try', async () => {
      const time = clock();
      const { authenticator, counts } = fakeAuthenticator();
      const server = await app(authenticator, time.now);
      const address = newAddress();
      expect(await statuses(server, address, 'bad', 4)).toEqual([401, 401, 401, 429]);
      time.advance(19_500);
      const early = await call(server, address, 'bad');
      expect(early.statusCode).toBe(429);
      expect(early.headers['retry-after']).toBe('1');
      time.advance(500);
      expect(await statuses(server, address, 'bad', 2)).toEqual([401, 429]);
      expect(counts.lookups).toBe(4);
      time.advance(20_000);
      expect(await statuses(server, address, 'good', 2)).toEqual([200, 200]);
    });

    it.runIf(backend.name === 'redis')('when two apps share one Redis, then they share one budget', async () => {
      const time = clock();
      const one = fakeAuthenticator();
      const two = fakeAuthenticator();
      const first = await app(one.authenticator, time.now);
      const second = await app(two.authenticator, time.now);
      const address = newAddress();
      expect(await statuses(first, address, 'bad', 3)).toEqual([401, 401, 401]);
      // The second app learns of the spent budget from its own take: one lookup, then none.
      expect(await statuses(second, address, 'bad', 3)).toEqual([429, 429, 429]);
      expect(two.counts.lookups).toBe(1);
    });
  });
}

describe('failed authentications per address (unreachable Redis)', () => {
  let down: Redis;
  beforeAll(() => {
    // Port 1 refuses connections; no offline queue and no retries make every command fail at once.
    down = new Redis({ host: '127.0.0.1', port: 1, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    down.on('error', () => {});
  });
  afterAll(() => down.disconnect());

  it('when Redis is unreachable, then failures are answered 401 and not limited (fail open)', async () => {
    const { authenticator } = fakeAuthenticator();
    const server = await buildTestApp({ kind: 'redis', client: down }, authenticator);
    try {
      expect(await statuses(server, newAddress(), 'bad', 10)).toEqual(Array(10).fill(401));
    } finally {
      await server.close();
    }
  });
});
