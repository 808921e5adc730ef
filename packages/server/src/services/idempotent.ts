import { AppError } from '../errors.js';
import type { Db, Queryable } from '../store/db.js';
import { claimKey, storeResponse } from '../store/repositories/idempotency.js';

export interface IdempotencyRequest {
  shopId: string;
  key: string;
  fingerprint: Buffer;
  retentionHours: number;
}

export interface WriteResponse {
  status: number;
  /** The response body exactly as sent, and as replayed. */
  body: string;
  requestId: string;
  replayed: boolean;
}

/**
 * Runs `execute` at most once per (shop, key) (PRODUCT.md §7), in one transaction with the
 * stored response: the key is claimed with a non-waiting lock (busy → 409 in use), a stored
 * response of the same request is replayed, one of another request is 422, otherwise the
 * write runs and its response is stored before commit. Any error rolls everything back and
 * stores nothing, so a retry runs afresh.
 */
export async function runIdempotent(
  db: Db,
  request: IdempotencyRequest | undefined,
  execute: (tx: Queryable) => Promise<Omit<WriteResponse, 'replayed'>>,
): Promise<WriteResponse> {
  return db.transaction(async (tx) => {
    if (!request) return { ...(await execute(tx)), replayed: false };
    const { claimed, stored } = await claimKey(tx, request.shopId, request.key, request.retentionHours);
    if (!claimed) {
      throw new AppError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        { idempotencyKey: request.key },
        { 'retry-after': '1' },
      );
    }
    if (stored) {
      if (!stored.fingerprint.equals(request.fingerprint)) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used for a different request (method, path or body).',
          { idempotencyKey: request.key },
        );
      }
      return { status: stored.status, body: stored.body, requestId: stored.requestId, replayed: true };
    }
    const response = await execute(tx);
    await storeResponse(tx, request.shopId, request.key, { ...response, fingerprint: request.fingerprint });
    return { ...response, replayed: false };
  });
}
