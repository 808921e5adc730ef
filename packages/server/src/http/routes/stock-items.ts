import { StockItemLevelsQuery, StockItemLevelsResponse, StockItemParams } from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { StockItemReader } from '../../services/stock-items/read-stock-items.js';
import { success } from '../envelope.js';

/** GET /api/v1/stock-items/{stockItemId}/levels: one stock shared by several variants (PRODUCT.md §20). */
export function stockItemRoutes(deps: { readStockItems: StockItemReader }) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: StockItemParams; Querystring: StockItemLevelsQuery }>(
      '/stock-items/:stockItemId/levels',
      {
        schema: {
          params: StockItemParams,
          querystring: StockItemLevelsQuery,
          response: { 200: StockItemLevelsResponse },
        },
        config: {
          openapi: {
            tag: 'Inventory',
            operationId: 'getStockItemLevels',
            summary: "Read a stock item's level",
            description:
              "The item's exact total at one location, in the item's unit, with every linked variant's whole units " +
              '(floor(total ÷ its unit measurement)) and the fraction beyond them. An item with no stock yet reads 0.',
            errors: [400, 404],
          },
        },
      },
      async (request) => {
        const data = await deps.readStockItems.levels(
          request.principal.shopId,
          request.params.stockItemId,
          request.query.locationId,
        );
        return success(request, data);
      },
    );
  };
}
