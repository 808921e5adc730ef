import { createHash } from 'node:crypto';
import pg from 'pg';
import type { CoordinatorCalls, Db, Queryable, QueryResult, TransactionOptions } from './db.js';
import { CHANNEL_NAME, createNestingGuard } from './nesting-guard.js';
import { coordinatorShards, customPlans, leaksLocalPlans } from './citus-plan-cache.js';
import { createShardRouter } from './shard-routing.js';

const TEXT_ARRAY = 1009;
// pg's typings only accept its TypeId enum, which lacks array oids.
const builtin = pg.types.getTypeParser as (oid: number, format: 'text' | 'binary') => (v: string) => unknown;
// Per-pool parsers, so a global pg.types.setTypeParser elsewhere in the process can neither
// turn our NUMERIC/INT8 into lossy numbers nor be overridden by us.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 1700 || oid === 20) return (v: string) => v;
    if (oid === 1231 || oid === 1016) return builtin(TEXT_ARRAY, format ?? 'text');
    return builtin(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

export async function openPostgres(opts: {
  connectionString: string;
  max?: number;
  /** On a Citus coordinator, a transaction of one shop runs on its shard's worker (`shard-routing.ts`). */
  shardRouting?: boolean;
}): Promise<Db> {
  const { connectionString } = opts;
  // A connection attempt that hangs (an unreachable host) fails after 5 s, as a 503, not forever.
  const poolConfig = { max: opts.max, types, connectionTimeoutMillis: 5000 };
  const openPool = (config: pg.PoolConfig) => {
    const opened = new pg.Pool({ connectionString, ...poolConfig, ...config });
    // An idle client losing its connection emits 'error' on the pool; unhandled it would kill
    // the process, while the pool already discards that client.
    opened.on('error', noop);
    return opened;
  };
  let pool = openPool({});
  let citus: boolean;
  try {
    const { rows } = await pool.query<{ citus: boolean }>(
      `SELECT to_regclass('pg_catalog.pg_dist_node') IS NOT NULL AS citus`,
    );
    citus = rows[0]!.citus;
  } catch (err) {
    await pool.end().catch(noop);
    throw new Error(`Cannot connect to PostgreSQL at ${redact(connectionString)}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  // A coordinator that holds shards runs their statements itself: it may leak as a worker does.
  // Before the tables are distributed there is nothing to probe with, so it is guarded until the
  // next start.
  const here = citus ? await coordinatorShards(pool) : undefined;
  if (
    here?.holds &&
    (here.shop === undefined || (await leaksLocalPlans(connectionString, here.shop).catch(() => true)))
  ) {
    await pool.end();
    pool = openPool(customPlans(connectionString));
  }

  const guard = createNestingGuard();
  const notNested = guard.assertNotNested;
  let closed = false;

  const handlers = new Map<string, Set<(payload: string) => void>>();
  let listener: Promise<pg.Client> | undefined;
  const listenerClient = (): Promise<pg.Client> => {
    const current = (async () => {
      const client = new pg.Client({ connectionString, types });
      // A dead listener is dropped and reconnected; see reconnectSoon.
      client.on('error', () => {
        if (listener === current) {
          listener = undefined;
          reconnectSoon();
        }
        client.end().catch(noop);
      });
      client.on('notification', (m) => {
        for (const h of handlers.get(m.channel) ?? []) h(m.payload ?? '');
      });
      await client.connect();
      // Re-subscribe channels a dropped listener had; LISTEN is idempotent.
      for (const channel of handlers.keys()) await client.query(`LISTEN "${channel}"`);
      return client;
    })();
    current.catch(() => {
      if (listener === current) listener = undefined;
    });
    listener = current;
    return current;
  };

  // The listener is one connection, so its LISTEN and UNLISTEN run one after another: node-postgres
  // deprecates a query sent while another runs on the client (pg@9 refuses it), and subscribers
  // start at once (the caches, the workers, the heard lease).
  let listenerWork: Promise<unknown> = Promise.resolve();
  const onListener = <T>(work: () => Promise<T>): Promise<T> => {
    const run = listenerWork.then(work);
    listenerWork = run.catch(noop);
    return run;
  };

  // Notifications sent while the listener was down are lost, so after reconnecting every
  // handler hears an empty payload, which subscribers treat as "anything may have changed".
  const reconnectSoon = (): void => {
    setTimeout(() => {
      if (closed || listener || handlers.size === 0) return;
      listenerClient()
        .then(() => {
          for (const set of handlers.values()) for (const h of set) h('');
        })
        .catch(reconnectSoon);
    }, 1000).unref();
  };

  /** Runs `fn` in a transaction on `client` and gives the client back (destroyed if its state is unknown). */
  const inTransaction = async <T>(
    client: pg.PoolClient,
    fn: (tx: Queryable) => Promise<T>,
    coordinator?: CoordinatorCalls,
  ): Promise<T> => {
    const state = { open: true };
    const tx: Queryable = {
      async query<Row>(sql: string, params?: readonly unknown[]) {
        // A tx leaked past its callback must not run on a client back in the pool.
        if (!state.open) throw new Error('Transaction is closed');
        if (coordinator && COORDINATOR_ONLY.test(sql)) {
          throw new Error(
            `A routed transaction draws ids and notifies through tx.coordinator, not on the worker: ${sql}`,
          );
        }
        return toResult<Row>(await client.query(statement(sql, params)));
      },
      coordinator,
    };
    let destroy = false;
    try {
      await client.query('BEGIN');
      let result: T;
      try {
        result = await guard.run(state, () => fn(tx));
      } finally {
        state.open = false;
      }
      const commit = await client.query('COMMIT');
      // COMMIT of a transaction a swallowed error aborted silently rolls back; PGlite
      // throws there, and so must we, or the caller believes its writes landed.
      if (commit.command === 'ROLLBACK') throw new Error('Transaction was aborted by an earlier error and rolled back');
      return result;
    } catch (err) {
      // If even ROLLBACK fails the connection state is unknown: destroy it, don't reuse it.
      await client.query('ROLLBACK').catch(() => {
        destroy = true;
      });
      throw err;
    } finally {
      state.open = false;
      client.release(destroy);
    }
  };

  const router = citus && opts.shardRouting ? createShardRouter(pool, connectionString, poolConfig) : undefined;

  return {
    driver: 'postgres',
    async query<Row>(sql: string, params?: readonly unknown[]) {
      notNested('query');
      return toResult<Row>(await pool.query(statement(sql, params)));
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions) {
      notNested('transaction');
      const shopId = options?.shopId;
      const worker = shopId === undefined ? undefined : await router?.connect(shopId);
      if (!router || !worker) return inTransaction(await pool.connect(), fn);
      const notices: [string, string][] = [];
      const coordinator: CoordinatorCalls = {
        async nextIds(sequence, count) {
          const { rows } = await router.calls.query<{ id: string }>(
            statement(`SELECT nextval($1::regclass)::text AS id FROM generate_series(1, $2::integer)`, [
              sequence,
              count,
            ]),
          );
          return rows.map((r) => r.id);
        },
        notifyAfterCommit: (channel, payload) => void notices.push([channel, payload]),
      };
      const result = await inTransaction(worker, fn, coordinator);
      // Heard by every instance on the coordinator. Lost only if this process dies between the
      // worker's commit and this statement: the queues' sweep finds such work within a minute.
      if (notices.length > 0) {
        await router.calls
          .query(
            statement('SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)', [
              notices.map(([channel]) => channel),
              notices.map(([, payload]) => payload),
            ]),
          )
          .catch(noop);
      }
      return result;
    },
    async listen(channel, onPayload) {
      notNested('listen');
      if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set);
      set.add(onPayload);
      try {
        await onListener(async () => (await (listener ?? listenerClient())).query(`LISTEN "${channel}"`));
      } catch (err) {
        set.delete(onPayload);
        if (set.size === 0) handlers.delete(channel);
        throw err;
      }
      return async () => {
        notNested('unlisten');
        set.delete(onPayload);
        if (set.size > 0 || handlers.get(channel) !== set) return;
        handlers.delete(channel);
        await onListener(async () => (await listener?.catch(() => undefined))?.query(`UNLISTEN "${channel}"`)).catch(
          noop,
        );
      };
    },
    async close() {
      notNested('close');
      closed = true;
      const l = listener;
      listener = undefined;
      await l?.then((c) => c.end(), noop);
      await pool.end();
      await router?.close();
    },
  };
}

/**
 * Statements sent with params (even none) are named after a hash of their text, so each
 * connection parses and plans them once and then only binds and executes. Statements sent
 * without may hold several commands, which only the simple protocol accepts.
 */
function statement(sql: string, params?: readonly unknown[]): pg.QueryConfig {
  if (!params) return { text: sql };
  let name = statementNames.get(sql);
  if (!name) {
    name = `tare_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    statementNames.set(sql, name);
  }
  return { name, text: sql, values: [...params] };
}
const statementNames = new Map<string, string>();

/**
 * What a worker must not run for a routed transaction (shard-routing.ts): its sequences count in a
 * range of its own, and no instance listens there.
 */
const COORDINATOR_ONLY = /\b(nextval|pg_notify)\s*\(/i;

/** Several statements (no params) yield an array of results; the last one is the answer. */
function toResult<Row>(r: pg.QueryResult | pg.QueryResult[]): QueryResult<Row> {
  const last = Array.isArray(r) ? r.at(-1) : r;
  return { rows: (last?.rows ?? []) as Row[], rowCount: last?.rowCount ?? last?.rows.length ?? 0 };
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable connection string>';
  }
}

function noop(): void {}
