import { OrderEditBody, OrderParams, OrderResponse } from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { OrderEditor } from '../../services/orders/edit-order.js';
import type { OrderReader } from '../../services/orders/read-order.js';
import { success } from '../envelope.js';
import { idempotencyOf, sendWriteResponse } from '../idempotency.js';

/**
 * GET and PATCH /api/v1/orders/{orderId}. The spec's sample has `id` and `items` at the top
 * level, so answers carry them there too, beside the envelope (PRODUCT.md §2).
 */
export function orderRoutes(deps: {
  readOrder: OrderReader;
  editOrder: OrderEditor;
  idempotencyRetentionHours: number;
}) {
  const withTopLevel = (envelope: ReturnType<typeof success>, data: { id: string; items: unknown[] }) => ({
    ...envelope,
    id: data.id,
    items: data.items,
  });

  return async (app: FastifyInstance) => {
    app.get<{ Params: Static<typeof OrderParams> }>(
      '/orders/:orderId',
      {
        schema: { params: OrderParams },
        // The 200 schema is documentation only: registering it would make Fastify serialize
        // the returned object with it.
        config: {
          openapi: {
            tag: 'Orders',
            operationId: 'getOrder',
            summary: 'The service-managed line items of an order',
            errors: [400, 404],
            ok: OrderResponse,
            links: {
              editOrder: {
                operationId: 'editOrder',
                description: 'Edit the first service-managed line of this order (here: keep its quantity).',
                parameters: { orderId: '$response.body#/data/id' },
                requestBody: {
                  edits: [
                    {
                      lineItemId: '$response.body#/data/items/0/lineItemId',
                      quantity: '$response.body#/data/items/0/quantity',
                    },
                  ],
                },
              },
            },
          },
        },
      },
      async (request) => {
        const order = await deps.readOrder(request.principal.shopId, request.params.orderId);
        return withTopLevel(success(request, order), order);
      },
    );

    app.patch<{ Params: Static<typeof OrderParams>; Body: OrderEditBody }>(
      '/orders/:orderId',
      {
        schema: { params: OrderParams, body: OrderEditBody },
        config: {
          openapi: {
            tag: 'Orders',
            operationId: 'editOrder',
            summary: 'Edit service-managed line items (all or nothing)',
            description:
              'Changes quantity, measurement or variant of service-managed lines. Idempotent when an ' +
              '`Idempotency-Key` is sent.',
            errors: [400, 404, 409, 413, 415, 422, 503],
            idempotencyKey: 'optional',
            ok: OrderResponse,
            links: {
              getOrder: {
                operationId: 'getOrder',
                description: 'The order as it is after the edit.',
                parameters: { orderId: '$response.body#/data/id' },
              },
            },
          },
        },
      },
      async (request, reply) => {
        const idempotency = idempotencyOf(request, {
          required: false,
          path: `/api/v1/orders/${request.params.orderId}`,
          retentionHours: deps.idempotencyRetentionHours,
        });
        const { shopId, keyId, keyName } = request.principal;
        const response = await deps.editOrder(
          {
            shopId,
            actor: { type: 'api_key', id: keyId, name: keyName },
            orderId: request.params.orderId,
            body: request.body,
            requestId: request.id,
            idempotency,
          },
          (data) => JSON.stringify(withTopLevel(success(request, data), data as { id: string; items: unknown[] })),
        );
        return sendWriteResponse(request, reply, response);
      },
    );
  };
}
