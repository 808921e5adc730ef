import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIdempotencyKey, requestFingerprint } from '../domain/idempotency-key.js';
import { AppError } from '../errors.js';
import type { IdempotencyRequest, WriteResponse } from '../services/idempotent.js';
import { JSON_TYPE } from './envelope.js';

/**
 * The request's `Idempotency-Key` (PRODUCT.md §7) as the write service takes it, fingerprinted
 * over method, `path` and body. A malformed key is 400; a missing one is 400 when `required`,
 * else the write is not idempotent (undefined).
 */
export function idempotencyOf(
  request: FastifyRequest,
  options: { required: boolean; path: string; retentionHours: number },
): IdempotencyRequest | undefined {
  const header = request.headers['idempotency-key'];
  const key = parseIdempotencyKey(header);
  if (!key) {
    if (header === undefined && !options.required) return undefined;
    throw new AppError(
      'bad_request',
      header === undefined
        ? 'The Idempotency-Key header is required on inventory writes; send a new unique key per operation and reuse it on retries.'
        : 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
      { header: 'Idempotency-Key' },
    );
  }
  return {
    shopId: request.principal.shopId,
    key,
    fingerprint: requestFingerprint(request.method, options.path, request.body),
    retentionHours: options.retentionHours,
  };
}

/** Sends a write's answer; a replay carries `Idempotency-Replayed` and the original request id. */
export function sendWriteResponse(request: FastifyRequest, reply: FastifyReply, response: WriteResponse) {
  if (response.replayed) {
    request.log.info({ originalRequestId: response.requestId }, 'idempotent replay');
    reply.header('idempotency-replayed', 'true').header('x-request-id', response.requestId);
  }
  return reply.status(response.status).type(JSON_TYPE).send(response.body);
}
