import type { FastifyRequest } from 'fastify';
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
  return {
    success: false as const,
    data: null,
    error: { code: error.code, message: error.message, details: error.details },
    meta: {},
    requestId: request.id,
  };
}
