import type { LevelProjection } from '../../platform/gateway.js';
import type { Queryable } from '../db.js';
import type { DueQueue } from './due-shops.js';

/** NOTIFY channel that wakes the push workers of every instance when whole units are queued. */
export const PROJECTION_QUEUED = 'tare_projection_queued';

/** One level's whole units waiting to reach the platform. */
export interface QueuedPush {
  shopId: string;
  locationId: string;
  variantId: string;
  available: number;
  /** What the platform must still show for the push to apply (null: whatever it shows). */
  expected: number | null;
  generation: string;
  cause: string;
  attempts: number;
}

/**
 * Queues the levels in the caller's transaction, so the whole units commit with the exact
 * total they come from. A level already queued is coalesced to the latest figure: its expected
 * figure (and the figures of pushes whose answer was lost) move by the platform's own moves
 * accounted since (`expected` − the queued `available`), so a push still finds the platform
 * where Tare left it. A level the platform already shows needs no row; if one is queued, it is
 * coalesced only when the platform moved meanwhile (else it already says the same).
 *
 * Each statement names the shop's rows only (one shard on Citus, decision 116). Citus pushes an
 * `INSERT … SELECT` down to the shop's one shard only when it reads a colocated table of that
 * shop (its locations, here) and draws no `nextval()` itself, so the generations are drawn first
 * (as the ledger's ids are). Every level Tare projects is at one of the shop's locations; a row
 * that found none would be lost, so the count is checked.
 */
export async function queueProjections(
  tx: Queryable,
  shopId: string,
  levels: LevelProjection[],
  cause: string,
): Promise<void> {
  const moving = levels.filter((l) => l.available !== l.expected);
  const shown = levels.filter((l) => l.available === l.expected);
  if (shown.length > 0) moving.push(...(await queuedAndMovedSince(tx, shopId, shown)));
  if (moving.length === 0) return;
  const generations = await drawGenerations(tx, shopId, moving.length);
  const { rows } = await tx.query(
    `INSERT INTO projection_outbox AS o (shop_id, location_id, variant_id, available, expected, generation, cause)
     SELECT loc.shop_id, loc.id, i.variant_id, i.available, i.expected, i.generation, $7
       FROM locations loc
       JOIN unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
              AS i(location_id, variant_id, available, expected, generation) ON loc.id = i.location_id
      WHERE loc.shop_id = $1
     ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET
       available = EXCLUDED.available,
       expected = o.expected + (EXCLUDED.expected - o.available),
       pushed = CASE WHEN EXCLUDED.expected IS NULL THEN o.pushed
                     ELSE ARRAY(SELECT p + (EXCLUDED.expected - o.available) FROM unnest(o.pushed) AS p) END,
       generation = EXCLUDED.generation,
       cause = EXCLUDED.cause
     RETURNING 1`,
    [
      shopId,
      moving.map((l) => l.locationId),
      moving.map((l) => l.variantId),
      moving.map((l) => l.available),
      moving.map((l) => l.expected),
      generations,
      cause,
    ],
  );
  if (rows.length !== moving.length) {
    throw new Error(`${moving.length - rows.length} projected level(s) of shop ${shopId} are at no known location`);
  }
}

/**
 * Of levels the platform shows as Tare expects, those queued at a figure the platform's own moves
 * have shifted since (the queued `available` is not what is expected now): they must be coalesced.
 */
async function queuedAndMovedSince(
  tx: Queryable,
  shopId: string,
  levels: LevelProjection[],
): Promise<LevelProjection[]> {
  const { rows } = await tx.query<{ location_id: string; variant_id: string }>(
    `SELECT o.location_id, o.variant_id
       FROM projection_outbox o
       JOIN unnest($2::text[], $3::text[], $4::bigint[]) AS i(location_id, variant_id, expected)
         ON o.location_id = i.location_id AND o.variant_id = i.variant_id
      WHERE o.shop_id = $1 AND o.available IS DISTINCT FROM i.expected`,
    [shopId, levels.map((l) => l.locationId), levels.map((l) => l.variantId), levels.map((l) => l.expected)],
  );
  const queued = new Set(rows.map((r) => `${r.location_id}\u0000${r.variant_id}`));
  return levels.filter((l) => queued.has(`${l.locationId}\u0000${l.variantId}`));
}

/** The stock outbox as a queue: every row waits for its push. */
export const PROJECTION_QUEUE: DueQueue = { table: 'projection_outbox', pending: 'true' };

/**
 * Leases up to `limit` due pushes of the shop for `leaseMs`: another instance skips them
 * meanwhile, and a worker that dies mid-push leaves them due again when the lease ends. Each
 * leased figure is recorded in `pushed` before it is sent, so a push whose answer is lost is
 * recognised when the platform shows it.
 */
export async function leaseDuePushes(
  db: Queryable,
  shopId: string,
  limit: number,
  leaseMs: number,
): Promise<QueuedPush[]> {
  const { rows } = await db.query<{
    shop_id: string;
    location_id: string;
    variant_id: string;
    available: string;
    expected: string | null;
    generation: string;
    cause: string;
    attempts: number;
  }>(
    `WITH due AS (
       SELECT o.shop_id, o.location_id, o.variant_id FROM projection_outbox o
        WHERE o.shop_id = $3 AND o.next_attempt_at <= now()
        ORDER BY o.next_attempt_at, o.location_id, o.variant_id LIMIT $1 FOR UPDATE OF o SKIP LOCKED)
     UPDATE projection_outbox o SET
       next_attempt_at = now() + make_interval(secs => $2::double precision / 1000),
       attempts = o.attempts + 1,
       pushed = CASE WHEN o.available = ANY(o.pushed) THEN o.pushed ELSE o.pushed || o.available END
       FROM due
      WHERE o.shop_id = $3 AND o.shop_id = due.shop_id AND o.location_id = due.location_id AND o.variant_id = due.variant_id
     RETURNING o.shop_id, o.location_id, o.variant_id, o.available, o.expected, o.generation, o.cause, o.attempts`,
    [limit, leaseMs, shopId],
  );
  return rows.map((row) => ({
    shopId: row.shop_id,
    locationId: row.location_id,
    variantId: row.variant_id,
    available: Number(row.available),
    expected: row.expected === null ? null : Number(row.expected),
    generation: row.generation,
    cause: row.cause,
    attempts: row.attempts,
  }));
}

type PushKey = Pick<QueuedPush, 'shopId' | 'locationId' | 'variantId' | 'generation'>;

/**
 * The pushes landed, in one statement: their rows go, unless a level was queued again
 * meanwhile. The platform then shows the landed figure, so the newer push expects it: its
 * expected figure moves by what the landed push changed (its figure − what it expected), on top
 * of the platform's own moves accounted since; left at the old figure, the newer push would go
 * stale and the landed figure be taken for the merchant's. Its lease would keep it waiting: it
 * is due now (and counted from now in the lag).
 */
export async function completePushes(
  db: Queryable,
  pushes: (PushKey & Pick<QueuedPush, 'available' | 'expected'>)[],
): Promise<void> {
  if (pushes.length === 0) return;
  await db.query(
    `WITH landed AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
                  AS k(location_id, variant_id, generation, available, expected)),
     done AS (
       DELETE FROM projection_outbox o USING landed k
        WHERE o.shop_id = $1 AND o.location_id = k.location_id AND o.variant_id = k.variant_id
          AND o.generation = k.generation
       RETURNING o.location_id)
     UPDATE projection_outbox o SET next_attempt_at = now(), attempts = 0, enqueued_at = now(),
       expected = CASE WHEN k.expected IS NULL THEN o.expected ELSE o.expected + (k.available - k.expected) END
       FROM landed k
      WHERE o.shop_id = $1 AND o.location_id = k.location_id AND o.variant_id = k.variant_id
        AND o.generation <> k.generation`,
    [
      pushes[0]!.shopId,
      pushes.map((p) => p.locationId),
      pushes.map((p) => p.variantId),
      pushes.map((p) => p.generation),
      pushes.map((p) => p.available),
      pushes.map((p) => p.expected),
    ],
  );
}

/** The push failed for a reason that passes (throttling, an outage): tried again after `retryInMs`. */
export async function postponePushes(
  db: Queryable,
  pushes: PushKey[],
  failure: { error: string; retryInMs: number },
): Promise<void> {
  if (pushes.length === 0) return;
  await db.query(
    `UPDATE projection_outbox o SET last_error = $4,
       next_attempt_at = now() + make_interval(secs => $5::double precision / 1000)
       FROM unnest($2::text[], $3::text[]) AS k(location_id, variant_id)
      WHERE o.shop_id = $1 AND o.location_id = k.location_id AND o.variant_id = k.variant_id`,
    [
      pushes[0]!.shopId,
      pushes.map((p) => p.locationId),
      pushes.map((p) => p.variantId),
      failure.error.slice(0, 2000),
      failure.retryInMs,
    ],
  );
}

/**
 * The shop's platform cannot take pushes now (an outage, throttling, a stopped sync): every push
 * of the shop waits until the same moment, so that one call probes the platform then instead of
 * each batch on its own backoff; the first push that lands makes the others due (wakeQueuedPushes).
 */
export async function postponeShopPushes(
  db: Queryable,
  shopId: string,
  failure: { error: string; retryInMs: number },
): Promise<void> {
  await db.query(
    `UPDATE projection_outbox SET last_error = $2,
       next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
      WHERE shop_id = $1`,
    [shopId, failure.error.slice(0, 2000), failure.retryInMs],
  );
}

/**
 * The shop's platform takes pushes again (a push landed after failures, or the shop was connected
 * again after a refused token or an uninstall): its queued pushes are due now instead of after the
 * backoff they reached meanwhile.
 */
export async function wakeQueuedPushes(db: Queryable, shopId: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE projection_outbox SET next_attempt_at = now(), attempts = 0 WHERE shop_id = $1 AND next_attempt_at > now()`,
    [shopId],
  );
  if (rowCount > 0) await db.query('SELECT pg_notify($1, $2)', [PROJECTION_QUEUED, shopId]);
  return rowCount;
}

/** A queued push locked for the caller's transaction, with the figures of its lost answers. */
export interface LockedPush extends QueuedPush {
  pushed: number[];
}

export async function lockQueuedPush(
  tx: Queryable,
  key: Pick<QueuedPush, 'shopId' | 'locationId' | 'variantId'>,
): Promise<LockedPush | undefined> {
  const { rows } = await tx.query<{
    available: string;
    expected: string | null;
    pushed: string[];
    generation: string;
    cause: string;
    attempts: number;
  }>(
    `SELECT available, expected, pushed::text[] AS pushed, generation, cause, attempts FROM projection_outbox
      WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3 FOR UPDATE`,
    [key.shopId, key.locationId, key.variantId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    ...key,
    available: Number(row.available),
    expected: row.expected === null ? null : Number(row.expected),
    pushed: row.pushed.map(Number),
    generation: row.generation,
    cause: row.cause,
    attempts: row.attempts,
  };
}

/**
 * `count` generations, the push workers told in the same statement (a notification is sent at
 * commit only). On a worker (shard routing) both are the coordinator's: the sequence's one series,
 * and the notification sent once the worker's transaction commits.
 */
async function drawGenerations(tx: Queryable, shopId: string, count: number): Promise<string[]> {
  if (tx.coordinator) {
    tx.coordinator.notifyAfterCommit(PROJECTION_QUEUED, shopId);
    return tx.coordinator.nextIds('projection_generations', count);
  }
  const { rows } = await tx.query<{ generation: string }>(
    `SELECT nextval('projection_generations')::text AS generation, pg_notify($2, $3)
       FROM generate_series(1, $1::integer)`,
    [count, PROJECTION_QUEUED, shopId],
  );
  return rows.map((r) => r.generation);
}

/**
 * The platform was found at one of Tare's own figures: the next push starts from there. The new
 * generation is drawn by a statement of its own: Citus refuses nextval() in an UPDATE.
 */
export async function rebasePush(tx: Queryable, push: LockedPush, shown: number): Promise<void> {
  const { rows } = await tx.query<{ generation: string }>(
    `SELECT nextval('projection_generations')::text AS generation`,
  );
  await tx.query(
    `UPDATE projection_outbox SET expected = $4, pushed = '{}', generation = $5,
       attempts = 0, next_attempt_at = now(), last_error = NULL
      WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3`,
    [push.shopId, push.locationId, push.variantId, shown, rows[0]!.generation],
  );
}

export async function dropPush(tx: Queryable, key: Pick<QueuedPush, 'shopId' | 'locationId' | 'variantId'>) {
  await tx.query(`DELETE FROM projection_outbox WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3`, [
    key.shopId,
    key.locationId,
    key.variantId,
  ]);
}

export async function hasQueuedPush(
  tx: Queryable,
  key: Pick<QueuedPush, 'shopId' | 'locationId' | 'variantId'>,
): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM projection_outbox WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3`,
    [key.shopId, key.locationId, key.variantId],
  );
  return rows.length > 0;
}

export interface OutboxStats {
  pending: number;
  /** When the oldest push still waiting was queued (null: nothing waits). */
  oldestQueuedAt: Date | null;
  lastError: string | null;
}

/** Pushes waiting, for one shop or all: the projection lag of `/metrics` and `tare platform show`. */
export async function outboxStats(db: Queryable, shopId?: string): Promise<OutboxStats> {
  const { rows } = await db.query<{ pending: string; oldest: Date | string | null; last_error: string | null }>(
    `SELECT count(*) AS pending, min(enqueued_at) AS oldest,
            (array_agg(last_error ORDER BY enqueued_at) FILTER (WHERE last_error IS NOT NULL))[1] AS last_error
       FROM projection_outbox WHERE $1::bigint IS NULL OR shop_id = $1`,
    [shopId ?? null],
  );
  const row = rows[0]!;
  return {
    pending: Number(row.pending),
    oldestQueuedAt: row.oldest === null ? null : new Date(row.oldest),
    lastError: row.last_error,
  };
}
