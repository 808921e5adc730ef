import type { FastifyRequest } from 'fastify';
import { success } from '../envelope.js';
import type { LinkDoc } from '../openapi.js';

/**
 * The envelope, with the documented fields repeated at the top level, as GET /orders does
 * (PRODUCT.md §2): a client written against Shopify's shapes reads `token` or `order` directly.
 */
export function withTopLevel<Data extends object>(request: FastifyRequest, data: Data) {
  return { ...success(request, data), ...data };
}

/**
 * Links from an answer holding an order (`order`, a JSON pointer expression to it) to what can
 * be done with it: the merchant's actions, and Tare's own view of the order.
 */
export function orderLinks(order: string): Record<string, LinkDoc> {
  const id = { id: `${order}/id` };
  return {
    sandboxGetOrder: { operationId: 'sandboxGetOrder', description: 'Read this order.', parameters: id },
    sandboxCancelOrder: {
      operationId: 'sandboxCancelOrder',
      description: 'Cancel this order and restock it.',
      parameters: id,
      requestBody: { restock: true },
    },
    sandboxRefundOrder: {
      operationId: 'sandboxRefundOrder',
      description: 'Refund one unit of its first line, returned to stock.',
      parameters: id,
      requestBody: { lines: [{ lineItemId: `${order}/line_items/0/id`, quantity: 1, restockType: 'return' }] },
    },
    sandboxFulfillOrder: { operationId: 'sandboxFulfillOrder', description: 'Fulfil this order.', parameters: id },
    getOrder: {
      operationId: 'getOrder',
      description: 'The measured lines of this order, as Tare’s API reads them.',
      parameters: { orderId: `${order}/id` },
    },
  };
}
