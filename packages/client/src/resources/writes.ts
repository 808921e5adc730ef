import { send, type RequestOptions, type TransportConfig, type TransportRequest } from '../transport.js';
import type { TareWriteResult } from '../types.js';

/**
 * Sends a write under one Idempotency-Key for the whole logical call (the caller's, or a new
 * UUID), so that a retry after a lost answer is replayed by the server instead of applied twice.
 */
export async function sendWrite<Data>(
  config: TransportConfig,
  request: Omit<TransportRequest, 'options'>,
  options: RequestOptions = {},
): Promise<TareWriteResult<Data>> {
  const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
  const response = await send(config, { ...request, options: { ...options, idempotencyKey } });
  return {
    data: response.body.data,
    meta: response.body.meta,
    requestId: response.requestId,
    replayed: response.headers.get('idempotency-replayed') === 'true',
  };
}

/** A random UUID from Web Crypto (Node 20 and browsers both have it on globalThis). */
export function newIdempotencyKey(): string {
  const webCrypto = (globalThis as { crypto?: Crypto }).crypto;
  if (typeof webCrypto?.randomUUID === 'function') return webCrypto.randomUUID();
  throw new Error('globalThis.crypto.randomUUID is unavailable: pass an idempotencyKey');
}
