import type { FastifyRequest } from 'fastify';
import { success } from '../envelope.js';

/**
 * The envelope, with the documented fields repeated at the top level, as GET /orders does
 * (PRODUCT.md §2): a client written against Shopify's shapes reads `token` or `order` directly.
 */
export function withTopLevel<Data extends object>(request: FastifyRequest, data: Data) {
  return { ...success(request, data), ...data };
}
