import { VariantParams, VariantResponse } from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { CatalogService } from '../../services/catalog.js';
import { JSON_TYPE, sendWhenReady, successJson } from '../envelope.js';
import { inventoryLinks } from '../openapi.js';

/** GET /api/v1/products/{productId}/variants/{variantId}: one variant and its parent product. */
export function variantRoute(deps: { catalog: CatalogService }) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: Static<typeof VariantParams> }>(
      '/products/:productId/variants/:variantId',
      {
        schema: { params: VariantParams, response: { 200: VariantResponse } },
        config: {
          openapi: {
            tag: 'Variants',
            operationId: 'getVariant',
            summary: 'One variant with its parent product',
            description: 'A variant of another product is 404.',
            errors: [400, 404],
            links: {
              getProduct: {
                operationId: 'getProduct',
                description: 'The parent product with its first page of variants.',
                parameters: { productId: '$response.body#/data/variant/product/id' },
              },
              ...inventoryLinks('$response.body#/data/variant'),
            },
          },
        },
      },
      (request, reply) => {
        const { productId, variantId } = request.params;
        return sendWhenReady(deps.catalog.getVariant(request.principal.shopId, productId, variantId), (found) =>
          reply.type(JSON_TYPE).send(successJson(request, found.json)),
        );
      },
    );
  };
}
