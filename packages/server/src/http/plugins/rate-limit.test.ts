import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ShopDirectory } from '../../services/shop-directory.js';
import { registerErrorHandling } from './errors.js';
import { type RateLimitStore, registerRateLimit } from './rate-limit.js';

const redisUrl = process.env.TEST_REDIS_URL;

const shops = {
  get: async (id: string) => ({
    id,
    domain: `${id}.example`,
    currency: 'EUR',
    defaultLocale: 'en',
    addonActive: true,
    mergeMatchingLineItems: null,
    rateLimit: { enabled: id !== 'shop-off', requestsPerMinute: 5 },
  }),
  peek: () => undefined,
} as unknown as ShopDirectory;

/** A controllable clock shared by the store under test. */
function clock() {
  let t = 1_700_000_000_000;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

async function buildTestApp(store: RateLimitStore, now?: () => number): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandling(app, { bodyLimit: 1024 });
  // Stands in for the real authentication hook: app-level, so it runs before the limiter.
  app.addHook('preValidation', async (request) => {
    const keyId = request.headers['x-test-key'];
    if (typeof keyId === 'string')
      request.principal = {
        keyId,
        shopId: String(request.headers['x-test-shop']),
        keyName: null,
      };
  });
  // As in the real app: the limiter is registered in the API scope, health checks outside it.
  await app.register(async (api) => {
    await registerRateLimit(api, { store, shops, now });
    api.get('/things', async () => ({ ok: true }));
  });
  app.get('/healthz', async () => ({ ok: true }));
  return app;
}

function call(app: FastifyInstance, keyId: string, shop = 'shop-a', url = '/things') {
  return app.inject({
    method: 'GET',
    url,
    headers: { 'x-test-key': keyId, 'x-test-shop': shop },
  });
}

async function statuses(app: FastifyInstance, keyId: string, count: number, shop = 'shop-a') {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await call(app, keyId, shop)).statusCode);
  return result;
}

const backends: {
  name: string;
  store: () => RateLimitStore;
  enabled: boolean;
}[] = [
  { name: 'memory', store: () => ({ kind: 'memory' }), enabled: true },
  {
    name: 'redis',
    store: () => ({ kind: 'redis', client: redisClient() }),
    enabled: Boolean(redisUrl),
  },
];

let redis: Redis | undefined;
const usedKeys: string[] = [];
function redisClient() {
  redis ??= new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
  return redis;
}
/** Unique key ids keep runs apart in a shared Redis; only these keys are deleted afterwards. */
function newKey() {
  const keyId = `test-${randomUUID()}`;
  usedKeys.push(`tare:rl:${keyId}`);
  return keyId;
}

afterAll(async () => {
  if (redis && usedKeys.length) await redis.del(...usedKeys);
  redis?.disconnect();
});

for (const backend of backends) {
  describe.runIf(backend.enabled)(`rate limit (${backend.name} store)`, () => {
    const apps: FastifyInstance[] = [];
    async function app(now?: () => number) {
      const built = await buildTestApp(backend.store(), now);
      apps.push(built);
      return built;
    }
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
    });

    it('when a key uses its budget, then the 6th request is 429 with the envelope and headers', async () => {
      const server = await app();
      const key = newKey();
      const first = await call(server, key);
      expect(first.statusCode).toBe(200);
      expect(first.headers['ratelimit-policy']).toBe('5;w=60');
      expect(first.headers.ratelimit).toMatch(/^limit=5, remaining=4, reset=\d+$/);
      expect(first.headers['x-ratelimit-limit']).toBeUndefined();
      expect(first.headers['ratelimit-limit']).toBeUndefined();
      expect(await statuses(server, key, 4)).toEqual([200, 200, 200, 200]);

      const limited = await call(server, key);
      expect(limited.statusCode).toBe(429);
      const body = limited.json();
      expect(body).toMatchObject({
        success: false,
        data: null,
        error: { code: 'rate_limited' },
      });
      expect(body.requestId).toEqual(expect.any(String));
      const retryAfter = Number(limited.headers['retry-after']);
      // At 5/min a token takes 12 s; the bucket was just emptied.
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(12);
      expect(body.error.details).toEqual({ retryAfterSeconds: retryAfter });
      expect(limited.headers['ratelimit-policy']).toBe('5;w=60');
      expect(limited.headers.ratelimit).toBe(`limit=5, remaining=0, reset=${retryAfter}`);
    });

    it('when another key of the same shop calls, then it has its own budget', async () => {
      const server = await app();
      const spent = newKey();
      expect(await statuses(server, spent, 6)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(await statuses(server, newKey(), 5)).toEqual([200, 200, 200, 200, 200]);
    });

    it('when the shop has rate limiting disabled, then 50 requests all pass without headers', async () => {
      const server = await app();
      const key = newKey();
      expect(new Set(await statuses(server, key, 50, 'shop-off'))).toEqual(new Set([200]));
      expect((await call(server, key, 'shop-off')).headers.ratelimit).toBeUndefined();
    });

    it('when a route is outside the API scope or unknown, then it is never limited', async () => {
      const server = await app();
      const key = newKey();
      for (let i = 0; i < 10; i++) {
        expect((await call(server, key, 'shop-a', '/healthz')).statusCode).toBe(200);
        expect((await call(server, key, 'shop-a', '/nowhere')).statusCode).toBe(404);
      }
      expect(await statuses(server, key, 5)).toEqual([200, 200, 200, 200, 200]);
    });

    it('when time passes, then tokens refill continuously', async () => {
      const time = clock();
      const server = await app(time.now);
      const key = newKey();
      expect(await statuses(server, key, 6)).toEqual([200, 200, 200, 200, 200, 429]);
      time.advance(11_000);
      const early = await call(server, key);
      expect(early.statusCode).toBe(429);
      expect(early.headers['retry-after']).toBe('1');
      time.advance(1_000);
      expect(await statuses(server, key, 2)).toEqual([200, 429]);
      time.advance(36_000);
      expect(await statuses(server, key, 4)).toEqual([200, 200, 200, 429]);
    });

    it.runIf(backend.name === 'redis')('when two apps share one Redis, then they share one budget', async () => {
      const one = await app();
      const two = await app();
      const key = newKey();
      const results = [...(await statuses(one, key, 5)), ...(await statuses(two, key, 5))];
      expect(results.filter((s) => s === 200)).toHaveLength(5);
      expect(results.slice(5)).toEqual([429, 429, 429, 429, 429]);
    });
  });
}

describe('rate limit (unreachable Redis)', () => {
  let down: Redis;
  beforeAll(() => {
    // Port 1 refuses connections; no offline queue and no retries make every command fail at once.
    down = new Redis({
      host: '127.0.0.1',
      port: 1,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    down.on('error', () => {});
  });
  afterAll(() => down.disconnect());

  it('when Redis is unreachable, then requests pass (fail open)', async () => {
    const server = await buildTestApp({ kind: 'redis', client: down });
    try {
      const key = `test-${randomUUID()}`;
      expect(await statuses(server, key, 10)).toEqual(Array(10).fill(200));
      expect((await call(server, key)).headers.ratelimit).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
