import {
  InventoryLedgerQuery,
  InventoryLedgerResponse,
  InventoryLevelsQuery,
  InventoryLevelsResponse,
} from '@tare/contracts';
import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import type { InventoryReader } from '../../services/inventory/read-inventory.js';
import { success } from '../envelope.js';

/**
 * A repeated query parameter arrives as an array, a single one as a string: make it an array
 * before validation, so `?variantId=2001` and `?variantId=2001&variantId=2002` read alike.
 */
const variantIdsAsArray: preValidationHookHandler = (request, _reply, done) => {
  const query = request.query as { variantId?: unknown };
  if (typeof query.variantId === 'string') query.variantId = [query.variantId];
  done();
};

/** GET /api/v1/inventory/levels and GET /api/v1/inventory/ledger: reading stock (PRODUCT.md §13). */
export function inventoryReadRoutes(deps: { readInventory: InventoryReader }) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: InventoryLevelsQuery }>(
      '/inventory/levels',
      {
        preValidation: variantIdsAsArray,
        schema: { querystring: InventoryLevelsQuery, response: { 200: InventoryLevelsResponse } },
        config: {
          openapi: {
            tag: 'Inventory',
            operationId: 'getInventoryLevels',
            summary: 'Read inventory levels',
            description:
              'The exact total, the whole units Tare projects to the platform and the fraction it keeps beyond them, ' +
              'for 1 to 100 variants at one location, in the order asked. A configured variant with no stock yet reads 0.',
            errors: [400, 404],
          },
        },
      },
      async (request) => {
        const { locationId, variantId } = request.query;
        const data = await deps.readInventory.levels(request.principal.shopId, locationId, variantId);
        return success(request, data);
      },
    );
    app.get<{ Querystring: InventoryLedgerQuery }>(
      '/inventory/ledger',
      {
        schema: { querystring: InventoryLedgerQuery, response: { 200: InventoryLedgerResponse } },
        config: {
          openapi: {
            tag: 'Inventory',
            operationId: 'listInventoryLedger',
            summary: 'Read the ledger of one inventory level',
            description:
              'Every change of the level, newest first, with what caused it. Cursors are opaque and signed; ' +
              'a tampered cursor, or one of another level or shop, is 400.',
            errors: [400, 404],
          },
        },
      },
      async (request) => {
        const page = await deps.readInventory.ledger(request.principal.shopId, request.query);
        return success(request, page.data, page.meta);
      },
    );
  };
}
