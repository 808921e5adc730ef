import type { Db } from './db.js';

/**
 * PostgreSQL when a URL is configured, else embedded PGlite at `dataDir` (in memory when
 * that is undefined too). Drivers load lazily so a deployment only loads the one it uses.
 * `warn` hears what an operator should know, e.g. a new PGlite store that had to run initdb.
 */
export async function openDb(
  config: { databaseUrl?: string; shardRouting?: boolean; dataDir?: string; pgliteSeed?: boolean },
  warn?: (message: string) => void,
): Promise<Db> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./pg-driver.js');
    return openPostgres({ connectionString: config.databaseUrl, shardRouting: config.shardRouting });
  }
  const { openPglite } = await import('./pglite-driver.js');
  return openPglite({
    dataDir: config.dataDir,
    seed: config.pgliteSeed === false ? false : undefined,
    onWarning: warn,
  });
}
