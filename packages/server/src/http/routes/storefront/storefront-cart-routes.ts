import { SandboxCartAddBody, SandboxCartChangeBody } from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { SandboxStorefront } from '../../../services/sandbox-storefront.js';
import { cartToken, keepCart, type StorefrontRequest } from './storefront-routes.js';

const base = '/sandbox/storefront/:domain';

/** Shopify's Ajax Cart API over the shop's sandbox carts, the cart's token in the `cart` cookie. */
export function storefrontCartRoutes({ storefront }: { storefront: SandboxStorefront }) {
  return async (app: FastifyInstance) => {
    app.get(`${base}/cart.js`, async (request: StorefrontRequest, reply) => {
      const { token, cart } = await storefront.readCart(request.params.domain, cartToken(request));
      keepCart(request, reply, token);
      return cart;
    });

    app.post<{ Params: { domain: string }; Body: SandboxCartAddBody }>(
      `${base}/cart/add.js`,
      { schema: { body: SandboxCartAddBody } },
      async (request, reply) => {
        const { token, items } = await storefront.addToCart(request.params.domain, cartToken(request), request.body);
        keepCart(request, reply, token);
        return { items };
      },
    );

    app.post<{ Params: { domain: string }; Body: SandboxCartChangeBody }>(
      `${base}/cart/change.js`,
      { schema: { body: SandboxCartChangeBody } },
      async (request, reply) => {
        const { token, cart } = await storefront.changeCart(request.params.domain, cartToken(request), request.body);
        keepCart(request, reply, token);
        return cart;
      },
    );
  };
}
