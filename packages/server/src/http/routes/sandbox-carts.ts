import {
  SandboxCartAddBody,
  SandboxCartChangeBody,
  SandboxCartParams,
  SandboxCartResponse,
  SandboxCheckoutBody,
  SandboxOrderResponse,
} from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { SandboxShop } from '../../services/sandbox-shop.js';
import { orderLinks, withTopLevel } from './sandbox-answer.js';

type CartRoute = { Params: SandboxCartParams };

/** The storefront's cart, after Shopify's Ajax Cart API (PRODUCT.md §15). */
export function sandboxCartRoutes(deps: { sandboxShop: SandboxShop }) {
  const shop = deps.sandboxShop;
  return async (app: FastifyInstance) => {
    app.post(
      '/carts',
      {
        schema: { response: { 201: SandboxCartResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxCreateCart',
            summary: 'Create an empty cart',
            errors: [404],
            okStatus: 201,
            links: {
              sandboxAddToCart: {
                operationId: 'sandboxAddToCart',
                description: 'Add one unit of the demo shop’s variant 2001 to this cart.',
                parameters: { token: '$response.body#/token' },
                requestBody: { items: [{ id: 2001, quantity: 1 }] },
              },
              sandboxGetCart: {
                operationId: 'sandboxGetCart',
                description: 'Read this cart.',
                parameters: { token: '$response.body#/token' },
              },
            },
          },
        },
      },
      async (request, reply) => {
        reply.status(201);
        return withTopLevel(request, await shop.createCart(request.principal.shopId));
      },
    );

    app.get<CartRoute>(
      '/carts/:token',
      {
        schema: { params: SandboxCartParams, response: { 200: SandboxCartResponse } },
        config: {
          openapi: { tag: 'Sandbox', operationId: 'sandboxGetCart', summary: 'Read a cart', errors: [400, 404] },
        },
      },
      async (request) => withTopLevel(request, await shop.readCart(request.principal.shopId, request.params.token)),
    );

    app.post<CartRoute & { Body: SandboxCartAddBody }>(
      '/carts/:token/add',
      {
        schema: { params: SandboxCartParams, body: SandboxCartAddBody, response: { 200: SandboxCartResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxAddToCart',
            summary: 'Add items to a cart',
            description:
              'All or nothing. A line with a valid `_svc_data` for its variant is priced by its measurement; ' +
              'equal lines merge when the shop’s `mergeMatchingLineItems` is true.',
            errors: [400, 404, 413, 415],
            links: {
              sandboxChangeCart: {
                operationId: 'sandboxChangeCart',
                description: 'Set the first line of this cart to two units.',
                parameters: { token: '$request.path.token' },
                requestBody: { key: '$response.body#/items/0/key', quantity: 2 },
              },
              sandboxCheckout: {
                operationId: 'sandboxCheckout',
                description: 'Check this cart out at the shop’s first location.',
                parameters: { token: '$request.path.token' },
                requestBody: {},
              },
            },
          },
        },
      },
      async (request) =>
        withTopLevel(request, await shop.addToCart(request.principal.shopId, request.params.token, request.body)),
    );

    app.post<CartRoute & { Body: SandboxCartChangeBody }>(
      '/carts/:token/change',
      {
        schema: { params: SandboxCartParams, body: SandboxCartChangeBody, response: { 200: SandboxCartResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxChangeCart',
            summary: 'Set the quantity of a cart line (0 removes it)',
            errors: [400, 404, 413, 415],
          },
        },
      },
      async (request) =>
        withTopLevel(request, await shop.changeCart(request.principal.shopId, request.params.token, request.body)),
    );

    app.post<CartRoute & { Body: SandboxCheckoutBody }>(
      '/carts/:token/checkout',
      {
        schema: { params: SandboxCartParams, body: SandboxCheckoutBody, response: { 201: SandboxOrderResponse } },
        config: {
          openapi: {
            tag: 'Sandbox',
            operationId: 'sandboxCheckout',
            summary: 'Check the cart out into an order',
            description:
              'The platform takes each line’s quantity off its own whole units and emits *order placed*; Tare books ' +
              'the measured lines when the event is processed, asynchronously. The cart is consumed.',
            errors: [400, 404, 413, 415, 422],
            okStatus: 201,
            links: orderLinks('$response.body#/order'),
          },
        },
      },
      async (request, reply) => {
        const answer = await shop.checkout(request.principal.shopId, request.params.token, request.body);
        reply.status(201);
        return withTopLevel(request, answer);
      },
    );
  };
}
