import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db, Queryable } from './db.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

// Fixed key ("tare" "migr" as bytes) so every instance of the service contends for the same lock.
const LOCK_KEY = '8386109761093461874';
const FILE = /^\d{4}-[A-Za-z0-9_.-]+\.sql$/;

/**
 * Applies pending `NNNN-name.sql` files from `dir` in name order, each exactly once, and
 * returns the file names applied by this call. Everything runs in one transaction behind
 * an advisory lock, so instances starting together queue up instead of racing, and a
 * failing file leaves nothing half-applied. Files must not contain BEGIN/COMMIT.
 */
export async function migrate(db: Db, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const sqlFiles = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const misnamed = sqlFiles.filter((f) => !FILE.test(f));
  // A misnamed file would otherwise be skipped silently and its schema never created.
  if (misnamed.length > 0) throw new Error(`Migration files must be named NNNN-name.sql: ${misnamed.join(', ')}`);
  const files = await Promise.all(
    sqlFiles.map(async (name) => ({ name, sql: await readFile(join(dir, name), 'utf8') })),
  );

  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = await tx.query<{ name: string }>('SELECT name FROM schema_migrations');
    const applied = new Set(done.rows.map((r) => r.name));
    const now: string[] = [];
    for (const file of files) {
      if (applied.has(file.name)) continue;
      // No params: both drivers run this through the simple protocol, so a file may hold
      // several statements.
      await tx.query(file.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file.name]);
      now.push(file.name);
    }
    return now;
  });
}

/** Whether the store is a Citus coordinator (migration 0025 then placed the tables on its nodes). */
export async function onCitus(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ citus: boolean }>(`SELECT tare_on_citus() AS citus`);
  return rows[0]?.citus === true;
}
