import type { Logger } from 'pino';
import type { Db } from '../store/db.js';
import { reapKeys } from '../store/repositories/idempotency.js';

/**
 * Deletes idempotency keys past their retention every `everyMs` (and once at start). Expired
 * keys are already ignored on lookup, so a late or failed run never changes an answer.
 */
export function startIdempotencyReaper(deps: { db: Db; logger: Logger; retentionHours: number; everyMs?: number }) {
  const run = () =>
    reapKeys(deps.db, deps.retentionHours)
      .then((deleted) => {
        if (deleted) deps.logger.info({ deleted }, 'reaped expired idempotency keys');
      })
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not reap idempotency keys'));
  const first = setTimeout(run, 5_000);
  const timer = setInterval(run, deps.everyMs ?? 10 * 60_000);
  first.unref();
  timer.unref();
  return {
    run,
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
