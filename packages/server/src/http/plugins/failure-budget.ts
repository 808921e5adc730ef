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
 * signatures): an app builds one and hands it to each, so failures on either spend the same tokens.
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

  return {
    /** Milliseconds until `address` may try a key again; 0 when it may now. */
    waitFor(address: string): number {
      if (blockedUntil.size === 0) return 0;
      const until = blockedUntil.get(address);
      if (until === undefined) return 0;
      const left = until - now();
      if (left > 0) return left;
      blockedUntil.delete(address);
      return 0;
    },
    /** Spends a token for a failure from `address`; resolves to the wait when none was left, else 0. */
    async failed(address: string): Promise<number> {
      const taken = await buckets.take(`auth-failures:${address}`, perMinute);
      // The last token is spent: the next failure would be refused, so refuse before its lookup.
      if (!taken.allowed || taken.remaining === 0) block(address, taken.msToNextToken);
      return taken.allowed ? 0 : taken.msToNextToken;
    },
  };
}
export type FailureBudget = ReturnType<typeof createFailureBudget>;
