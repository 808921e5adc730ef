import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import type { SandboxShop } from '../../services/sandbox-shop.js';
import { sandboxCartRoutes } from './sandbox-carts.js';
import { sandboxMerchantRoutes } from './sandbox-merchant.js';

/**
 * /sandbox: the embedded platform as a working shop (PRODUCT.md §15), in a scope that is
 * authenticated and rate limited like /api/v1. A shop on another platform has no sandbox: its
 * requests are answered as for a path that does not exist.
 */
export function sandboxRoutes(deps: { sandboxShop: SandboxShop }) {
  return async (app: FastifyInstance) => {
    // After authentication (the parent scope's hook), before the body is validated.
    app.addHook('preValidation', async (request) => {
      if (!(await deps.sandboxShop.servesShop(request.principal.shopId))) {
        throw errors.routeNotFound(request.method, request.url.split('?')[0] ?? '/');
      }
      // An action sent without a body (`curl -X POST …/cancel`) reads as `{}`: its optional
      // fields take their defaults, and a missing required field is named like any other.
      if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT')) request.body = {};
    });
    await app.register(sandboxCartRoutes(deps));
    await app.register(sandboxMerchantRoutes(deps));
  };
}
