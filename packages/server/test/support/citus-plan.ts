import type { Queryable } from '../../src/store/db.js';
import type { Sent } from './recording-db.js';

/**
 * The shard tasks Citus plans for a statement, from its EXPLAIN: the largest Task Count of the
 * plan, 0 when no distributed table is in it, and Infinity when Citus runs it in steps (a
 * subplan whose result feeds the rest, or an `INSERT … SELECT` pulled through the coordinator
 * or repartitioned): such a statement is no router plan even when each step has one task. A
 * statement Citus cannot plan at all counts as Infinity too.
 */
export async function citusTasks(db: Queryable, sql: string, params: readonly unknown[]): Promise<number> {
  let plan: unknown;
  try {
    const { rows } = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    plan = rows[0]!['QUERY PLAN'];
  } catch {
    return Infinity;
  }
  let most = 0;
  let steps = false;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Task Count' && typeof value === 'number') most = Math.max(most, value);
        else if (key === 'INSERT/SELECT method' && value !== 'pushdown') steps = true;
        else if (key === 'Subplans' && Array.isArray(value) && value.length > 0) steps = true;
        walk(value);
      }
    }
  };
  walk(plan);
  return steps ? Infinity : most;
}

/**
 * Statements that are cross-shop on purpose (docs/operations.md lists them), which a server's
 * background workers send while requests run: the queues' sweep for the shops with work due now
 * or before the next sweep (at start and every minute), and the hourly reaping of old
 * idempotency keys.
 */
const CROSS_SHOP = [
  /^SELECT shop_id, \(extract\(epoch FROM min\(next_attempt_at\) - now\(\)\) \* 1000\)::float8 AS ms\s+FROM (platform_events|projection_outbox|metafield_outbox)\s/,
  /^DELETE FROM idempotency_keys WHERE created_at/,
];

/**
 * The import's writes: the catalog's upserts (products, variants, stock items; the admin's saves
 * of one call the same functions) and the levels and ledger rows of its slices. Each is an
 * `INSERT … SELECT` from `unnest(…)` of one shop's rows, which Citus pulls through the
 * coordinator to the shop's one shard, in steps, on purpose (docs/operations.md, decision 119).
 */
const IN_STEPS = [
  /^INSERT INTO (products|variants|stock_items AS s) \([^)]*\)\s+SELECT \$1, \w+\.id,[\s\S]*FROM unnest\(/,
  /^INSERT INTO inventory_levels \(shop_id, location_id, variant_id, total, unit\)\s+SELECT \$1, w\.location_id,/,
  /^INSERT INTO inventory_ledger \(shop_id, location_id, variant_id, operation,[\s\S]*FROM unnest\(/,
];

/**
 * The statements of `statements` that Citus plans on more than one shard (or in steps), each as
 * its first 60 characters; the cross-shop ones on purpose, the import's writes and those that
 * are no query aside.
 */
export async function widerThanOneShard(db: Queryable, statements: readonly Sent[]): Promise<string[]> {
  const wide: string[] = [];
  for (const statement of statements) {
    if (!/^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(statement.sql)) continue;
    if ([...CROSS_SHOP, ...IN_STEPS].some((pattern) => pattern.test(statement.sql))) continue;
    const tasks = await citusTasks(db, statement.sql, statement.params);
    if (tasks > 1) wide.push(statement.sql.replace(/\s+/g, ' ').slice(0, 60));
  }
  return wide;
}

/**
 * The statements `work` sent through a store recording into `sent` that Citus plans on more than
 * one shard (`widerThanOneShard`); it fails when `work` sent none, so that a check of nothing
 * cannot pass.
 */
export async function fannedOutDuring(db: Queryable, sent: Sent[], work: () => Promise<unknown>): Promise<string[]> {
  sent.length = 0;
  await work();
  const statements = [...sent];
  if (statements.length === 0) throw new Error('the work sent no statement to check');
  return widerThanOneShard(db, statements);
}

/**
 * A check of pieces of work against a store recording into `sent`: each piece's statements that
 * Citus plans on more than one shard, by the piece's name, and how many each sent, so that a
 * check of nothing cannot pass.
 */
export function shardCheck(db: Queryable, sent: Sent[]) {
  const fannedOut: Record<string, string[]> = {};
  const statements: Record<string, number> = {};
  return {
    /** By name, what each piece sent wider than one shard: `{}` while everything was on one. */
    fannedOut,
    /** By name, how many statements each piece sent. */
    statements,
    /** How many statements every piece sent, in all. */
    get total() {
      return Object.values(statements).reduce((sum, count) => sum + count, 0);
    },
    /** Runs `work` as the piece `name` and checks what it sent; gives `work`'s result. */
    async run<T>(name: string, work: () => Promise<T>): Promise<T> {
      sent.length = 0;
      const result = await work();
      const own = [...sent];
      statements[name] = own.length;
      const wide = await widerThanOneShard(db, own);
      if (wide.length) fannedOut[name] = wide;
      return result;
    },
  };
}
