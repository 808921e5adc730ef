import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { errors } from '../../errors.js';
import type { ShopDirectory } from '../../services/shop-directory.js';
import type { Shop } from '../../store/repositories/shops.js';

/** Where token buckets live: this process only, or Redis so that all instances share one budget. */
export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis };

const DEFAULT_PER_MINUTE = 600;
const WINDOW_MS = 60_000;

/**
 * Bucket levels are integers in units of 1/windowMs token (one token = windowMs units, a full
 * bucket = max × windowMs, refill = max units per ms), so refill arithmetic is exact in JS and Lua.
 */
type Take = (key: string, max: number, windowMs: number) => Promise<{ allowed: boolean; level: number }>;

/**
 * Maps one take onto the plugin's fixed-window contract: it limits when `current > max`, shows
 * `max - current` as remaining and `ceil(ttl / 1000)` as reset/Retry-After. So `current` is
 * max − whole tokens left (max + 1 when none was left), and `ttl` is the ms until one more whole
 * token exists: when limited, that is exactly when a retry succeeds. Always ≥ 1 ms, which is how
 * a reset of 0 later identifies a request the plugin let through after a store error.
 */
function toPluginAnswer({ allowed, level }: { allowed: boolean; level: number }, max: number, windowMs: number) {
  const { remaining, msToNextToken } = tokensOf(level, max, windowMs);
  return { current: allowed ? max - remaining : max + 1, ttl: msToNextToken };
}

/** Whole tokens left at `level`, and the ms until one more whole token exists (≥ 1). */
function tokensOf(level: number, max: number, windowMs: number) {
  const remaining = Math.floor(level / windowMs);
  return { remaining, msToNextToken: Math.max(1, Math.ceil(((remaining + 1) * windowMs - level) / max)) };
}

function memoryTake(now: () => number): Take {
  const buckets = new Map<string, { level: number; at: number; fullAt: number }>();
  let sweptAt = now();
  return async (key, max, windowMs) => {
    const t = now();
    // A bucket that has refilled completely equals a missing one, so dropping those keeps memory
    // bounded by the keys active within the last window.
    if (t - sweptAt >= windowMs) {
      for (const [k, b] of buckets) if (b.fullAt <= t) buckets.delete(k);
      sweptAt = t;
    }
    const capacity = max * windowMs;
    const old = buckets.get(key);
    let level = old ? Math.min(capacity, old.level + Math.max(0, t - old.at) * max) : capacity;
    const allowed = level >= windowMs;
    if (allowed) level -= windowMs;
    const at = old ? Math.max(old.at, t) : t;
    buckets.set(key, {
      level,
      at,
      fullAt: at + Math.ceil((capacity - level) / max),
    });
    return { allowed, level };
  };
}

// One atomic read-refill-take-write, so instances sharing the Redis never double-spend a token.
// ARGV[3] < 0 means "use the Redis clock": every instance then agrees on time despite skew.
const TAKE_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local capacity = max * window
local state = redis.call('HMGET', KEYS[1], 'level', 'at')
local level = tonumber(state[1])
local at = tonumber(state[2])
if level == nil or at == nil then
  level = capacity
  at = now
end
level = math.min(capacity, level + math.max(0, now - at) * max)
if now > at then at = now end
local allowed = 0
if level >= window then
  level = level - window
  allowed = 1
end
redis.call('HSET', KEYS[1], 'level', string.format('%.0f', level), 'at', string.format('%.0f', at))
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((capacity - level) / max)))
return {allowed, string.format('%.0f', level)}
`;

type TakeCommand = (key: string, max: number, windowMs: number, now: number) => Promise<[number, string]>;

function redisTake(client: Redis, now: (() => number) | undefined): Take {
  client.defineCommand('tareRateLimitTake', { numberOfKeys: 1, lua: TAKE_LUA });
  const take = (client as unknown as { tareRateLimitTake: TakeCommand }).tareRateLimitTake.bind(client);
  return async (key, max, windowMs) => {
    const [allowed, level] = await take(`tare:rl:${key}`, max, windowMs, now ? now() : -1);
    return { allowed: allowed === 1, level: Number(level) };
  };
}

function takeFrom(store: RateLimitStore, now: (() => number) | undefined): Take {
  return store.kind === 'redis' ? redisTake(store.client, now) : memoryTake(now ?? Date.now);
}

export interface TokenBuckets {
  /** Takes a token from `key`'s bucket of `perMinute` tokens (capacity and refill per minute). */
  take(key: string, perMinute: number): Promise<{ allowed: boolean; remaining: number; msToNextToken: number }>;
}

/**
 * Token buckets for a budget other than the per-key one, in the same store (memory, or Redis so
 * that instances share them); `key` must not look like a key id (prefix it, e.g. `auth-failures:`).
 */
export function createTokenBuckets(store: RateLimitStore, now?: () => number): TokenBuckets {
  const take = takeFrom(store, now);
  return {
    async take(key, perMinute) {
      const { allowed, level } = await take(key, perMinute, WINDOW_MS);
      return { allowed, ...tokensOf(level, perMinute, WINDOW_MS) };
    },
  };
}

/** The plugin instantiates the store class itself, hence a class closed over our state. */
function storeClass(take: Take, failures: Map<string, unknown>): FastifyRateLimitStoreCtor {
  return class implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      windowMs: number,
      max: number,
    ) {
      take(key, max, windowMs).then(
        (taken) => callback(null, toPluginAnswer(taken, max, windowMs)),
        (error: unknown) => {
          failures.set(key, error);
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }
    // One budget per key across all routes, so route-specific configs share the same buckets.
    child() {
      return this;
    }
  };
}

function isExempt(request: FastifyRequest) {
  return !request.principal;
}

/**
 * Per-API-key token bucket on the routes of the scope it is registered in (/api/v1). Its hook
 * runs at preValidation after the scope's authentication hook (registered before it).
 */
export async function registerRateLimit(
  app: FastifyInstance,
  deps: { store: RateLimitStore; shops: ShopDirectory; now?: () => number },
): Promise<void> {
  const take = takeFrom(deps.store, deps.now);
  const failures = new Map<string, unknown>();
  // Shops are almost always cached: answer synchronously then, the plugin awaits either way.
  const withShop = <T>(request: FastifyRequest, read: (shop: Shop) => T): T | Promise<T> => {
    const shop = deps.shops.peek(request.principal.shopId);
    return shop ? read(shop) : deps.shops.get(request.principal.shopId).then(read);
  };
  const perMinute = (shop: Shop) => {
    const value = shop.rateLimit.requestsPerMinute;
    return Number.isInteger(value) && value > 0 ? value : DEFAULT_PER_MINUTE;
  };

  await app.register(rateLimit, {
    // Not on every route: the hook below runs the limiter only for shops that have it on.
    global: false,
    hook: 'preValidation',
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => (isExempt(request) ? '' : request.principal.keyId),
    allowList: (request) => isExempt(request) || withShop(request, (shop) => !shop.rateLimit.enabled),
    // The plugin awaits `max` whatever its declared type says.
    max: ((request: FastifyRequest) => withShop(request, perMinute)) as (request: FastifyRequest) => number,
    store: storeClass(take, failures),
    // Fail open: when Redis is unreachable the plugin lets the request through (and we warn
    // below) — a limiter outage must not take the whole API down with a 500.
    skipOnError: true,
    // The plugin's ratelimit-* headers become RateLimit/RateLimit-Policy (below); Retry-After
    // comes from the AppError.
    enableDraftSpec: true,
    addHeaders: { 'retry-after': false },
    errorResponseBuilder: (_request, context) => errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });

  // The plugin's ratelimit-* headers only carry this request's numbers: turned into
  // RateLimit/RateLimit-Policy as soon as the limiter has run, on a 429 too.
  const policyHeaders = (request: FastifyRequest, reply: FastifyReply) => {
    const limit = reply.getHeader('ratelimit-limit');
    if (limit === undefined) return;
    const remaining = reply.getHeader('ratelimit-remaining');
    const reset = reply.getHeader('ratelimit-reset');
    reply.removeHeader('ratelimit-limit').removeHeader('ratelimit-remaining').removeHeader('ratelimit-reset');
    if (Number(reset) === 0) {
      const key = request.principal?.keyId ?? '';
      request.log.warn({ err: failures.get(key) }, 'rate limit store failed; request allowed (fail open)');
      failures.delete(key);
      return;
    }
    reply.header('ratelimit-policy', `${limit};w=${WINDOW_MS / 1000}`);
    reply.header('ratelimit', `limit=${limit}, remaining=${remaining}, reset=${reset}`);
  };

  // Callback style, after the scope's authentication: a shop with its limit off (the bench shop,
  // an app's own backend) costs one cached lookup, no promise and no onSend hook. The plugin's
  // own per-route hook awaited the key, the allow list and a `routeOptions` copy every time.
  const limiter = app.rateLimit();
  app.addHook('preValidation', (request, reply, done) => {
    if (isExempt(request)) return done();
    const shop = deps.shops.peek(request.principal.shopId);
    if (shop && !shop.rateLimit.enabled) return done();
    limiter.call(app, request, reply).then(
      () => {
        policyHeaders(request, reply);
        done();
      },
      (error: Error) => {
        policyHeaders(request, reply);
        done(error);
      },
    );
  });
}
