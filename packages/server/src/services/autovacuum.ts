import type { Logger } from 'pino';
import { maintainTable, type TableDue, tablesDue } from '../store/autovacuum.js';
import type { Db } from '../store/db.js';

/**
 * PostgreSQL's autovacuum daemon, for PGlite, which has none (one session, no background
 * workers). Without it the space of deleted and updated rows (reaped idempotency keys, processed
 * inbox events, every level a write updates) is never reused and statistics never follow the
 * data: the data dir and the inbox's claim grow with the store's history (decision 67). Every
 * `everyMs` (the daemon's naptime, a minute) it vacuums and analyzes what the daemon would, one
 * statement per table, so requests queued meanwhile run in between. PostgreSQL has its own.
 */
export function startAutovacuum(deps: { db: Db; logger: Logger; everyMs?: number }) {
  let running: Promise<TableDue[]> | undefined;
  const pass = async (): Promise<TableDue[]> => {
    const started = performance.now();
    const due = await tablesDue(deps.db);
    for (const table of due) await maintainTable(deps.db, table);
    if (due.length) deps.logger.info({ tables: due, ms: Math.round(performance.now() - started) }, 'autovacuum');
    return due;
  };
  /** One pass now (or the one under way); resolves with what it did. */
  const run = (): Promise<TableDue[]> => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => {
    run().catch((err: unknown) => deps.logger.warn({ err }, 'autovacuum failed; it tries again in a minute'));
  }, deps.everyMs ?? 60_000);
  timer.unref();
  return {
    run,
    /** Stops the timer and waits for a pass under way, so the store can be closed after. */
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
