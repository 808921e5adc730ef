import type { FastifyRequest } from 'fastify';
import { type AppError, errors } from '../../errors.js';
import { createTokenBuckets, type RateLimitStore } from './rate-limit.js';

/** Failed authentications per client address: a burst of 60, then one a second. */
const FAILURES_PER_MINUTE = 60;
const BLOCKED_LIMIT = 10_000;

export interface FailureBudgetOptions {
  /** Capacity and refill per minute of each address's bucket (default 60). */
  perMinute?: number;
  /** The clock; tests pass their own. */
  now?: () => number;
}

/**
 * Failed authentications per client address (`request.ip`): a token bucket per address in the
 * rate-limit store (memory, or Redis so that instances share it), spent by each 401. An address
 * without a token left is refused before its key is even read, until its next token: this
 * instance remembers that from its own take, so a refused request costs no store or Redis call.
 * One budget serves every way in that a stranger can fail to authenticate (API keys, webhook
 * signatures): an app builds one and hands it to each, so failures on either spend the same tokens,
 * and each asks it the same two things: `blocked` before its lookup, `spend` after a 401.
 */
export function createFailureBudget(store: RateLimitStore, options: FailureBudgetOptions = {}) {
  const perMinute = options.perMinute ?? FAILURES_PER_MINUTE;
  const now = options.now ?? Date.now;
  const buckets = createTokenBuckets(store, options.now);
  const blockedUntil = new Map<string, number>();

  function block(address: string, ms: number) {
    if (blockedUntil.size >= BLOCKED_LIMIT) {
      const t = now();
      for (const [other, until] of blockedUntil) if (until <= t) blockedUntil.delete(other);
      if (blockedUntil.size >= BLOCKED_LIMIT) blockedUntil.clear();
    }
    blockedUntil.set(address, now() + ms);
  }

  const rateLimited = (waitMs: number) => errors.rateLimited(Math.ceil(waitMs / 1000));

  return {
    /** 429 `rate_limited` (with Retry-After) while the request's address may not try again yet. */
    blocked(request: Pick<FastifyRequest, 'ip'>): AppError | undefined {
      if (blockedUntil.size === 0) return undefined;
      const until = blockedUntil.get(request.ip);
      if (until === undefined) return undefined;
      const left = until - now();
      if (left > 0) return rateLimited(left);
      blockedUntil.delete(request.ip);
      return undefined;
    },
    /**
     * Spends a token for the failed authentication `refusal` (a 401) of the request's address and
     * resolves to the answer: `refusal` itself, or 429 when no token was left. A store that does
     * not answer leaves the failure uncounted and the answer the 401 (fail open, as the per-key
     * limiter does).
     */
    async spend(request: Pick<FastifyRequest, 'ip' | 'log'>, refusal: AppError): Promise<AppError> {
      let taken: Awaited<ReturnType<typeof buckets.take>>;
      try {
        taken = await buckets.take(`auth-failures:${request.ip}`, perMinute);
      } catch (storeError) {
        request.log.warn({ err: storeError }, 'failed-authentication budget unavailable; not counted');
        return refusal;
      }
      // The last token is spent: the next failure would be refused, so refuse before its lookup.
      if (!taken.allowed || taken.remaining === 0) block(request.ip, taken.msToNextToken);
      return taken.allowed ? refusal : rateLimited(taken.msToNextToken);
    },
  };
}
export type FailureBudget = ReturnType<typeof createFailureBudget>;
