import type { Queryable } from '../db.js';

export interface StoredResponse {
  fingerprint: Buffer;
  status: number;
  body: string;
  requestId: string;
}

/**
 * Claims `key` for this transaction without waiting: false means another transaction holds it
 * right now (the request is still in flight). The lock ends with the transaction. Keys are
 * hashed into the lock space per shop; a rare collision only answers a retryable 409.
 */
export async function tryClaimKey(db: Queryable, shopId: string, key: string): Promise<boolean> {
  const { rows } = await db.query<{ claimed: boolean }>(
    'SELECT pg_try_advisory_xact_lock($1::int, hashtext($2)) AS claimed',
    [Number(shopId) % 2_147_483_647, key],
  );
  return rows[0]?.claimed === true;
}

/** The stored response of `key`, when one younger than `retentionHours` exists. */
export async function findStoredResponse(
  db: Queryable,
  shopId: string,
  key: string,
  retentionHours: number,
): Promise<StoredResponse | undefined> {
  const { rows } = await db.query<{
    fingerprint: Uint8Array;
    response_status: number;
    response_body: string;
    request_id: string;
  }>(
    `SELECT fingerprint, response_status, response_body, request_id FROM idempotency_keys
     WHERE shop_id = $1 AND key = $2 AND created_at > now() - make_interval(hours => $3)`,
    [shopId, key, retentionHours],
  );
  const row = rows[0];
  return (
    row && {
      fingerprint: Buffer.from(row.fingerprint),
      status: row.response_status,
      body: row.response_body,
      requestId: row.request_id,
    }
  );
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
       request_id = EXCLUDED.request_id, created_at = now()`,
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
