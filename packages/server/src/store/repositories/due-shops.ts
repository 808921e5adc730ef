import type { Queryable } from '../db.js';

/** A queue table with a `shop_id` and a `next_attempt_at` per row. */
export interface DueQueue {
  table: string;
  /** The rows that are or will become due (the claim's condition without the time). */
  pending: string;
}

/**
 * Milliseconds until the shop's next pending row is due (0 when one is due now), or null when
 * the shop has none (rows held with an infinite due time wait for a notification). One shard.
 */
export async function nextDueInMs(db: Queryable, queue: DueQueue, shopId: string): Promise<number | null> {
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS ms
       FROM ${queue.table} WHERE shop_id = $1 AND ${queue.pending} AND next_attempt_at < 'infinity'`,
    [shopId],
  );
  const ms = rows[0]?.ms ?? null; // null: no row (min of nothing)
  return ms === null ? null : Math.max(0, ms);
}

/**
 * The queue's sweep: the shops whose next pending row is due now or within `withinMs`, each with
 * the milliseconds until then (0: due), the longest waiting first. The one cross-shop read of a
 * queue (every shard on Citus), without a lock; each shop's work is then claimed by shop (one
 * shard), with SKIP LOCKED. Shops due later are scheduled, so that work waiting on a backoff
 * that no instance drained (stored before it started) is taken when due, not at the next sweep.
 */
export async function shopsDueWithin(db: Queryable, queue: DueQueue, withinMs: number): Promise<Map<string, number>> {
  const { rows } = await db.query<{ shop_id: string; ms: number }>(
    `SELECT shop_id, (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS ms
       FROM ${queue.table}
      WHERE ${queue.pending} AND next_attempt_at <= now() + make_interval(secs => $1::double precision / 1000)
      GROUP BY shop_id
      ORDER BY ms`,
    [withinMs],
  );
  return new Map(rows.map((r) => [r.shop_id, Math.max(0, r.ms)]));
}
