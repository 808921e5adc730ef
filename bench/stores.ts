// The in-process benchmarks (events, Shopify outbox, event floor) run on both stores the same way.
import path from 'node:path';
import type { Db } from '../packages/server/src/store/db.js';
import { openPostgres } from '../packages/server/src/store/pg-driver.js';
import { openPglite } from '../packages/server/src/store/pglite-driver.js';
import { createDatabase, dropBenchDatabase } from './inventory.js';

export type StoreName = 'PGlite' | 'PostgreSQL';

/**
 * Runs `measure` on PGlite (a data dir `name` in `tmp`), then, when BENCH_PG_URL is set, on a
 * temporary PostgreSQL database, dropped afterwards; each store is closed whatever happens.
 */
export async function onEachStore<T>(
  tmp: string,
  name: string,
  measure: (store: StoreName, db: Db) => Promise<T>,
  log: (line: string) => void,
): Promise<T[]> {
  const results: T[] = [];
  const lite = await openPglite({ dataDir: path.join(tmp, name) });
  try {
    results.push(await measure('PGlite', lite));
  } finally {
    await lite.close();
  }
  if (!process.env.BENCH_PG_URL) {
    log('PostgreSQL: skipped (set BENCH_PG_URL to measure it too)');
    return results;
  }
  const url = await createDatabase();
  log(`PostgreSQL: temporary database ${new URL(url).pathname.slice(1)}`);
  try {
    const db = await openPostgres({ connectionString: url });
    try {
      results.push(await measure('PostgreSQL', db));
    } finally {
      await db.close();
    }
  } finally {
    await dropBenchDatabase();
  }
  return results;
}
