import { mkdir } from 'node:fs/promises';
import { PGlite, type Results, type Transaction } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult } from './db.js';
import { CHANNEL_NAME, createNestingGuard } from './nesting-guard.js';

/** PGlite Db plus what test support needs to snapshot a migrated database. */
export interface PgliteDb extends Db {
  readonly driver: 'pglite';
  /** Uncompressed tarball of the data dir: loads ~40% faster than gzip and stays in memory anyway. */
  dumpDataDir(): Promise<Blob>;
}

// NUMERIC and INT8 as the server's exact text; PGlite derives the array parsers from these.
const EXACT_TEXT = { 1700: (v: string) => v, 20: (v: string) => v };

export async function openPglite(opts: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PgliteDb> {
  if (opts.dataDir !== undefined) await mkdir(opts.dataDir, { recursive: true });
  const pg = await PGlite.create({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    parsers: EXACT_TEXT,
    // The default 128 MB of shared buffers is most of PGlite's memory; a shop catalog and its
    // inventory fit in far less (measured: server RSS 412 → 290 MB under load).
    postgresqlconf: ['shared_buffers = 16MB'],
  });

  // PGlite is a single session: every BEGIN..COMMIT must own it end to end, or a concurrent
  // statement would land inside (and be rolled back with) someone else's transaction.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.then(noop, noop);
    return run;
  };

  const guard = createNestingGuard();
  const notNested = guard.assertNotNested;

  return {
    driver: 'pglite',
    query<Row>(sql: string, params?: readonly unknown[]) {
      notNested('query');
      return exclusive(() => run<Row>(pg, sql, params));
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      notNested('transaction');
      // PGlite's own transaction() issues BEGIN/COMMIT/ROLLBACK, refuses a closed tx, and
      // throws when COMMIT turns into ROLLBACK because the callback swallowed an error.
      return exclusive(() =>
        pg.transaction(async (ptx) => {
          const state = { open: true };
          const tx: Queryable = { query: (sql, params) => run(ptx, sql, params) };
          try {
            return await guard.run(state, () => fn(tx));
          } finally {
            state.open = false;
          }
        }),
      );
    },
    async listen(channel, onPayload) {
      notNested('listen');
      if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
      const unlisten = await exclusive(() => pg.listen(channel, onPayload));
      return async () => {
        notNested('unlisten');
        await exclusive(() => unlisten());
      };
    },
    dumpDataDir() {
      notNested('dumpDataDir');
      return exclusive(() => pg.dumpDataDir('none'));
    },
    async close() {
      notNested('close');
      await exclusive(() => pg.close());
    },
  };
}

/**
 * Without params, runs `sql` through the simple protocol (exec) so it may hold several
 * statements, as node-postgres does; the result is the last statement's.
 */
async function run<Row>(q: PGlite | Transaction, sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
  if (params === undefined || params.length === 0) {
    const all = await q.exec(sql);
    return toResult(all.at(-1) as Results<Row> | undefined);
  }
  return toResult(await q.query<Row>(sql, [...params]));
}

function toResult<Row>(r: Results<Row> | undefined): QueryResult<Row> {
  if (r === undefined) return { rows: [], rowCount: 0 };
  return { rows: r.rows, rowCount: r.rowCount ?? r.rows.length };
}

function noop(): void {}
