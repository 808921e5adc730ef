import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../errors.js';

/** `{ success, data, error, meta, requestId }` for a successful answer (PRODUCT.md §2). */
export function success<Data, Meta extends object = Record<string, never>>(
  request: FastifyRequest,
  data: Data,
  meta: Meta = {} as Meta,
) {
  return { success: true as const, data, error: null, meta, requestId: request.id };
}

export function failure(request: FastifyRequest, error: AppError) {
  return failureWithId(request.id, error);
}

/**
 * The failure envelope under a bare request id: for answers written before Fastify has a
 * request, such as those to requests Node's HTTP parser rejects.
 */
export function failureWithId(requestId: string, error: AppError) {
  return {
    success: false as const,
    data: null,
    error: { code: error.code, message: error.message, details: error.details },
    meta: {},
    requestId,
  };
}

/**
 * The success envelope around `data` and `meta` that are already JSON text (cached answers):
 * byte-for-byte what `success()` would serialize, without serializing them again.
 */
export function successJson(request: FastifyRequest, json: { data: string; meta: string }): string {
  return `{"success":true,"data":${json.data},"error":null,"meta":${json.meta},"requestId":${JSON.stringify(request.id)}}`;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends `answer` at once when it is a value (a cached one), or once its promise settles: a warm
 * read then runs without a turn of the microtask queue. A rejection reaches the error handler.
 */
export function sendWhenReady<T>(
  answer: T | Promise<T>,
  send: (value: T) => FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  return answer instanceof Promise ? answer.then(send) : send(answer);
}
