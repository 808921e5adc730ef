// The backoff state the projection outbox is left in by an outage too long to wait for in a
// benchmark: the push worker's own rules replayed on a simulated clock. See bench/README.md
// ("Shopify outbox", part c).
import { retryDelayMs } from '../packages/server/src/services/events/inbox-worker.js';
import { MAX_RETRY_MS } from '../packages/server/src/services/projection/push-worker.js';

export interface OutageModel {
  /** Per write, in write order: the row's state when Shopify comes back. */
  rows: { attempts: number; dueInMs: number; ageMs: number }[];
  /** Pushes that failed during the outage (calls Shopify answered 5xx). */
  failedCalls: number;
}

/**
 * `writes` levels queued at an even pace over `outageMs` while every push fails, as the worker
 * (push-worker.ts) treats them: it wakes on each write (NOTIFY) and every `pollMs`; each wake
 * leases the due rows, oldest `next_attempt_at` first, up to `batchSize` per call, adds one to
 * each row's `attempts`, and a failed call (a 503 has no Retry-After) postpones every queued push
 * of the shop to one probe, `retryDelayMs` of the batch's highest `attempts` capped at 30 s.
 * Calls take no time.
 */
export function modelOutage(options: {
  writes: number;
  outageMs: number;
  pollMs?: number;
  batchSize?: number;
}): OutageModel {
  const { writes, outageMs } = options;
  const pollMs = options.pollMs ?? 1000;
  const batchSize = options.batchSize ?? 100;
  const rows = Array.from({ length: writes }, (_, i) => {
    const at = (i * outageMs) / writes;
    return { index: i, queuedAt: at, attempts: 0, nextAt: at };
  });
  const wakes = [
    ...rows.map((r) => r.queuedAt),
    ...Array.from({ length: Math.ceil(outageMs / pollMs) }, (_, k) => k * pollMs),
  ].sort((a, b) => a - b);
  let failedCalls = 0;
  for (const now of wakes) {
    for (;;) {
      const due = rows
        .filter((r) => r.queuedAt <= now && r.nextAt <= now)
        .sort((a, b) => a.nextAt - b.nextAt || a.index - b.index)
        .slice(0, batchSize);
      if (due.length === 0) break;
      for (const row of due) row.attempts += 1;
      // The shop's every queued push waits for one probe, capped as the worker caps it.
      const delay = Math.min(MAX_RETRY_MS, retryDelayMs(Math.max(...due.map((r) => r.attempts))));
      for (const row of rows) if (row.queuedAt <= now) row.nextAt = now + delay;
      failedCalls += 1;
    }
  }
  return {
    rows: rows.map((r) => ({ attempts: r.attempts, dueInMs: r.nextAt - outageMs, ageMs: outageMs - r.queuedAt })),
    failedCalls,
  };
}
