import {
  SandboxCancelBody,
  SandboxOrderParams,
  SandboxOrderResponse,
  SandboxRefundBody,
  SandboxRefundResponse,
  SandboxStockBody,
  SandboxStockQuery,
  SandboxStockResponse,
} from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { SandboxShop } from '../../services/sandbox-shop.js';
import { orderLinks, withTopLevel } from './sandbox-answer.js';

type OrderRoute = { Params: SandboxOrderParams };

/** What a merchant does in the platform's admin: orders and stock (PRODUCT.md §15). */
export function sandboxMerchantRoutes(deps: { sandboxShop: SandboxShop }) {
  const shop = deps.sandboxShop;
  return async (app: FastifyInstance) => {
    app.get<OrderRoute>(
      '/orders/:id',
      {
        schema: { params: SandboxOrderParams, response: { 200: SandboxOrderResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxGetOrder',
            summary: 'Read an order as the platform has it',
            errors: [400, 404],
            links: orderLinks('$response.body#/order'),
          },
        },
      },
      async (request) => withTopLevel(request, await shop.readOrder(request.principal.shopId, request.params.id)),
    );

    app.post<OrderRoute & { Body: SandboxCancelBody }>(
      '/orders/:id/cancel',
      {
        schema: { params: SandboxOrderParams, body: SandboxCancelBody, response: { 200: SandboxOrderResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxCancelOrder',
            summary: 'Cancel an open order, optionally restocking it',
            description:
              'With `restock`, every unit not yet refunded goes back on the platform’s stock as a refund of restock ' +
              'type `cancel`. Emits *order cancelled*. An order that is not open is 422 `unprocessable`.',
            errors: [400, 404, 413, 415, 422],
          },
        },
      },
      async (request) =>
        withTopLevel(request, await shop.cancelOrder(request.principal.shopId, request.params.id, request.body)),
    );

    app.post<OrderRoute & { Body: SandboxRefundBody }>(
      '/orders/:id/refunds',
      {
        schema: { params: SandboxOrderParams, body: SandboxRefundBody, response: { 201: SandboxRefundResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxRefundOrder',
            summary: 'Refund units of an order’s lines',
            description:
              'Each line up to its units not refunded yet; `return` and `cancel` put them back on the platform’s ' +
              'stock, `no_restock` does not. Emits *refund created*.',
            errors: [400, 404, 413, 415],
            okStatus: 201,
          },
        },
      },
      async (request, reply) => {
        const answer = await shop.refundOrder(request.principal.shopId, request.params.id, request.body);
        reply.status(201);
        return withTopLevel(request, answer);
      },
    );

    app.post<OrderRoute>(
      '/orders/:id/fulfill',
      {
        schema: { params: SandboxOrderParams, response: { 200: SandboxOrderResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxFulfillOrder',
            summary: 'Fulfil every line of an open order',
            description: 'Emits *order updated*. Tare refuses edits of fulfilled lines.',
            errors: [400, 404, 422],
          },
        },
      },
      async (request) => withTopLevel(request, await shop.fulfilOrder(request.principal.shopId, request.params.id)),
    );

    app.put<{ Body: SandboxStockBody }>(
      '/inventory',
      {
        schema: { body: SandboxStockBody, response: { 200: SandboxStockResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxSetStock',
            summary: 'Type a stock figure into the platform’s admin',
            description:
              'Sets the platform’s whole units of one level and emits *stock changed*; Tare adopts the figure or ' +
              'projects its own back, as the shop’s `platformStockChanges` says.',
            errors: [400, 404, 413, 415],
          },
        },
      },
      async (request) => withTopLevel(request, await shop.setStock(request.principal.shopId, request.body)),
    );

    app.get<{ Querystring: SandboxStockQuery }>(
      '/inventory',
      {
        schema: { querystring: SandboxStockQuery, response: { 200: SandboxStockResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxGetStock',
            summary: 'Read the platform’s whole units of one level',
            errors: [400, 404],
          },
        },
      },
      async (request) => withTopLevel(request, await shop.readStock(request.principal.shopId, request.query)),
    );
  };
}
