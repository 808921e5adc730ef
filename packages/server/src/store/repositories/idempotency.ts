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
  const { rows } = await db.query<{
    claimed: boolean;
    fingerprint: Uint8Array | null;
    response_status: number | null;
    response_body: string | null;
    request_id: string | null;
  }>('SELECT * FROM tare_claim_idempotency_key($1, $2, $3)', [shopId, key, retentionHours]);
  const row = rows[0];
  if (row?.claimed !== true) return { claimed: false };
  if (row.fingerprint === null) return { claimed: true };
  return {
    claimed: true,
    stored: {
      fingerprint: Buffer.from(row.fingerprint),
      status: row.response_status!,
      body: row.response_body!,
      requestId: row.request_id!,
    },
  };
}

/** Stores the response (replacing an expired one of the same key) in the caller's transaction. */
export async function storeResponse(
  db: Queryable,
  shopId: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db.query(
    `INSERT INTO idempotency_keys (shop_id, key, fingerprint, response_status, response_body, request_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (shop_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
       response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
       request_id = EXCLUDED.request_id, created_at = EXCLUDED.created_at`,
    [shopId, key, response.fingerprint, response.status, response.body, response.requestId],
  );
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
