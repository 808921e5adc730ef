import type { Queryable } from '../db.js';

/** Shops passed over by one claim before it reports nothing due (each had its due work taken). */
const SHOP_TRIES = 8;

/** A queue table with a `shop_id` and a `next_attempt_at` per row. */
export interface DueQueue {
  table: string;
  /** The rows that are or will become due (the claim's condition without the time). */
  pending: string;
  /** The order in which due rows are taken. */
  order: string;
}

/**
 * A queue's claim, one shop at a time. Given `shopId` (a hint: the shop was notified or is
 * scheduled), only that shop is tried: one shard on Citus. Without it, the sweep
 * (`sweepDueShops`). On Citus every locking statement is so routed to one shard (Citus refuses
 * FOR UPDATE SKIP LOCKED across shards); on PostgreSQL it is the same claim.
 */
export async function claimInDueShop<T>(
  db: Queryable,
  queue: DueQueue,
  claim: (shopId: string) => Promise<T | undefined>,
  shopId?: string,
): Promise<T | undefined> {
  if (shopId !== undefined) return claim(shopId);
  return sweepDueShops(db, queue, claim);
}

/**
 * The sweep: `table`'s shop with the oldest due row is read first, without a lock (the one
 * cross-shop read, which asks every shard), then `claim` locks and takes that shop's work with
 * SKIP LOCKED. When another instance holds all of a shop's due rows, the next shop is tried.
 * Given the pool rather than a transaction, each `claim` may open its own: on Citus a
 * transaction that has read every shard at once may not then write `shops` (the inbox deletes
 * it on shop/redact).
 */
export async function sweepDueShops<T>(
  db: Queryable,
  queue: DueQueue,
  claim: (shopId: string) => Promise<T | undefined>,
): Promise<T | undefined> {
  const passed: string[] = [];
  for (let tries = 0; tries < SHOP_TRIES; tries++) {
    const { rows } = await db.query<{ shop_id: string }>(
      `SELECT shop_id FROM ${queue.table} WHERE ${queue.pending} AND next_attempt_at <= now()
          AND shop_id <> ALL($1::bigint[])
        ORDER BY ${queue.order} LIMIT 1`,
      [passed],
    );
    const found = rows[0]?.shop_id;
    if (found === undefined) return undefined;
    const claimed = await claim(found);
    if (claimed !== undefined) return claimed;
    passed.push(found);
  }
  return undefined;
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
 * The shops whose next pending row falls due within `withinMs` but not yet, each with the
 * milliseconds until then: the sweep schedules them, so that work due before the next sweep (a
 * retry after backoff when no instance held it: after a restart) is not left until then.
 * Cross-shop, with the sweep: every shard on Citus.
 */
export async function shopsDueWithin(db: Queryable, queue: DueQueue, withinMs: number): Promise<Map<string, number>> {
  const { rows } = await db.query<{ shop_id: string; ms: number }>(
    `SELECT shop_id, (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS ms
       FROM ${queue.table}
      WHERE ${queue.pending} AND next_attempt_at > now()
        AND next_attempt_at <= now() + make_interval(secs => $1::double precision / 1000)
      GROUP BY shop_id`,
    [withinMs],
  );
  return new Map(rows.map((r) => [r.shop_id, Math.max(0, r.ms)]));
}
