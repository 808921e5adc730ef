import type { Queryable } from '../db.js';

/** Shops passed over by one claim before it reports nothing due (each had its due work taken). */
const SHOP_TRIES = 8;

/**
 * A queue's claim, one shop at a time: `table`'s shop with the oldest due row (`due`, a condition
 * on its columns) is read first, without a lock (the one cross-shop read), then `claim` locks
 * and takes that shop's work with SKIP LOCKED. When another instance holds all of a shop's due
 * rows, the next shop is tried. On Citus every locking statement is so routed to one shard
 * (Citus refuses FOR UPDATE SKIP LOCKED across shards); on PostgreSQL it is the same claim.
 */
export async function claimInDueShop<T>(
  db: Queryable,
  queue: { table: string; due: string; order: string },
  claim: (shopId: string) => Promise<T | undefined>,
): Promise<T | undefined> {
  const passed: string[] = [];
  for (let tries = 0; tries < SHOP_TRIES; tries++) {
    const { rows } = await db.query<{ shop_id: string }>(
      `SELECT shop_id FROM ${queue.table} WHERE ${queue.due} AND shop_id <> ALL($1::bigint[])
        ORDER BY ${queue.order} LIMIT 1`,
      [passed],
    );
    const shopId = rows[0]?.shop_id;
    if (shopId === undefined) return undefined;
    const claimed = await claim(shopId);
    if (claimed !== undefined) return claimed;
    passed.push(shopId);
  }
  return undefined;
}
