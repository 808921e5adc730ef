import type { Queryable } from '../db.js';

export interface StoredResponse {
  fingerprint: Buffer;
  status: number;
  body: string;
  requestId: string;
}

/**
 * Claims `key` for this transaction without waiting and, once claimed, reads its stored response
 * (one younger than `retentionHours`), in one round trip. `claimed` false means another
 * transaction holds the key right now (the request is still in flight). The lock ends with the
 * transaction. Keys are hashed into the lock space per shop; a rare collision only answers a
 * retryable 409. The read runs after the lock is held, with a fresh snapshot (migration 0009).
 */
export async function claimKey(
  db: Queryable,
  shopId: string,
  key: string,
  retentionHours: number,
): Promise<{ claimed: boolean; stored?: StoredResponse }> {
  const { rows } = await db.query<StoredRow & { claimed: boolean }>(
    'SELECT * FROM tare_claim_idempotency_key($1, $2, $3)',
    [shopId, key, retentionHours],
  );
  const row = rows[0];
  if (row?.claimed !== true) return { claimed: false };
  return { claimed: true, stored: storedOf(row) };
}

/** A stored response's columns, as the claim function and `readStoredResponse` return them (all null: none). */
interface StoredRow {
  fingerprint: Uint8Array | null;
  response_status: number | null;
  response_body: string | null;
  request_id: string | null;
}

function storedOf(row: StoredRow | undefined): StoredResponse | undefined {
  if (!row || row.fingerprint === null) return undefined;
  return {
    fingerprint: Buffer.from(row.fingerprint),
    status: row.response_status!,
    body: row.response_body!,
    requestId: row.request_id!,
  };
}

/**
 * Claims `key` for this transaction without waiting, as `claimKey` does (the same lock), but
 * reads nothing: a statement with no table, which Citus answers on the coordinator. For writes
 * that look for the stored response after their work (`runIdempotent`).
 */
export async function lockKey(db: Queryable, shopId: string, key: string): Promise<boolean> {
  const { rows } = await db.query<{ claimed: boolean }>(
    'SELECT pg_try_advisory_xact_lock(($1::bigint % 2147483647)::integer, hashtext($2)) AS claimed',
    [shopId, key],
  );
  return rows[0]?.claimed === true;
}

/**
 * The response stored for `key`: one younger than `retentionHours`, or any when that is null
 * (the caller's own `storeResponse` has just found it live).
 */
export async function readStoredResponse(
  db: Queryable,
  shopId: string,
  key: string,
  retentionHours: number | null,
): Promise<StoredResponse | undefined> {
  const { rows } = await db.query<StoredRow>(
    `SELECT fingerprint, response_status, response_body, request_id FROM idempotency_keys
     WHERE shop_id = $1 AND key = $2 AND ($3::int IS NULL OR created_at > now() - make_interval(hours => $3::int))`,
    [shopId, key, retentionHours],
  );
  return storedOf(rows[0]);
}

/**
 * Stores the response in the caller's transaction, replacing one of the same key older than
 * `retentionHours`; false when a younger one is stored (nothing written). The age is the new
 * row's time less the stored one's: Citus takes only immutable functions in an upsert's `WHERE`
 * (`now()` and timestamp-minus-interval are not).
 */
export async function storeResponse(
  db: Queryable,
  shopId: string,
  key: string,
  response: StoredResponse,
  retentionHours: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO idempotency_keys AS k (shop_id, key, fingerprint, response_status, response_body, request_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (shop_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
       response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
       request_id = EXCLUDED.request_id, created_at = EXCLUDED.created_at
     WHERE EXCLUDED.created_at - k.created_at >= make_interval(hours => $7)
     RETURNING 1`,
    [shopId, key, response.fingerprint, response.status, response.body, response.requestId, retentionHours],
  );
  return rows.length === 1;
}

/** Deletes keys older than the retention; returns how many. */
export async function reapKeys(db: Queryable, retentionHours: number): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM idempotency_keys WHERE created_at <= now() - make_interval(hours => $1)',
    [retentionHours],
  );
  return rowCount;
}

/** Forgets every key of one shop (its data was put back as it shipped: `tare demo --reset`). */
export async function forgetShopKeys(db: Queryable, shopId: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE shop_id = $1', [shopId]);
  return rowCount;
}
