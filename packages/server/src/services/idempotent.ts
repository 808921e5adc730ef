import { AppError } from '../errors.js';
import type { Db, Queryable, TransactionOptions } from '../store/db.js';
import {
  claimKey,
  lockKey,
  readStoredResponse,
  type StoredResponse,
  storeResponse,
} from '../store/repositories/idempotency.js';

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

type Execute = (tx: Queryable) => Promise<Omit<WriteResponse, 'replayed'>>;

/**
 * Runs `execute` at most once per (shop, key) (PRODUCT.md §7), in one transaction with the
 * stored response: the key is claimed with a non-waiting lock (busy → 409 in use), a stored
 * response of the same request is replayed, one of another request is 422, otherwise the
 * write runs and its response is stored before commit. Any error rolls everything back and
 * stores nothing, so a retry runs afresh.
 *
 * `effectsInTransaction`: `execute` changes nothing outside the transaction (no call to a remote
 * platform), so a retry may run it and roll it back. The stored response is then looked for
 * after the write, not before it: the first attempt, by far the common one, is spared a read
 * (on Citus a round trip to the shard's worker, decision 118), and a retry costs its write's
 * work, rolled back. The answers are the same either way; a retry whose write now fails (its
 * variant gone, the platform down) still replays what was stored.
 *
 * `shopId`: the write touches that shop's rows only and may run on its shard's worker (Citus,
 * shard routing). The key's lock is then that worker's: two attempts of one key through
 * different nodes both run, and the stored answer's primary key lets one commit.
 */
export async function runIdempotent(
  db: Db,
  request: IdempotencyRequest | undefined,
  execute: Execute,
  options: { effectsInTransaction?: boolean } & TransactionOptions = {},
): Promise<WriteResponse> {
  const { effectsInTransaction, ...transaction } = options;
  if (!request) return db.transaction(async (tx) => ({ ...(await execute(tx)), replayed: false }), transaction);
  if (!effectsInTransaction) return lookFirst(db, request, execute, transaction);
  try {
    return await db.transaction(async (tx) => {
      if (!(await lockKey(tx, request.shopId, request.key))) throw inUse(request);
      const response = await execute(tx);
      if (await store(tx, request, response)) return { ...response, replayed: false };
      throw new StoredFirst(await readStoredResponse(tx, request.shopId, request.key, null));
    }, transaction);
  } catch (error) {
    if (error instanceof AppError && error.code === 'idempotency_key_in_use') throw error;
    const stored =
      error instanceof StoredFirst
        ? error.stored
        : // A lookup that fails too (the store is down) leaves the write's own error to answer.
          await readStoredResponse(db, request.shopId, request.key, request.retentionHours).catch(() => undefined);
    if (!stored) throw error;
    return replay(stored, request);
  }
}

/** The key's stored response, found live when this write tried to store its own (rolled back). */
class StoredFirst extends Error {
  constructor(readonly stored: StoredResponse | undefined) {
    super('a response is already stored for this Idempotency-Key');
  }
}

async function lookFirst(
  db: Db,
  request: IdempotencyRequest,
  execute: Execute,
  transaction: TransactionOptions,
): Promise<WriteResponse> {
  return db.transaction(async (tx) => {
    const { claimed, stored } = await claimKey(tx, request.shopId, request.key, request.retentionHours);
    if (!claimed) throw inUse(request);
    if (stored) return replay(stored, request);
    const response = await execute(tx);
    await store(tx, request, response);
    return { ...response, replayed: false };
  }, transaction);
}

const store = (tx: Queryable, request: IdempotencyRequest, response: Omit<WriteResponse, 'replayed'>) =>
  storeResponse(
    tx,
    request.shopId,
    request.key,
    { ...response, fingerprint: request.fingerprint },
    request.retentionHours,
  );

function replay(stored: StoredResponse, request: IdempotencyRequest): WriteResponse {
  if (!stored.fingerprint.equals(request.fingerprint)) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request (method, path or body).',
      { idempotencyKey: request.key },
    );
  }
  return { status: stored.status, body: stored.body, requestId: stored.requestId, replayed: true };
}

function inUse(request: IdempotencyRequest): AppError {
  return new AppError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
    { idempotencyKey: request.key },
    { 'retry-after': '1' },
  );
}
