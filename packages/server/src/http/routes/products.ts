import { ProductParams, ProductQuery, ProductResponse } from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { CatalogService } from '../../services/catalog.js';
import { JSON_TYPE, sendWhenReady, successJson } from '../envelope.js';
import { inventoryLinks } from '../openapi.js';

/** GET /api/v1/products/{productId}: the product with one page of its variants. */
export function productRoute(deps: { catalog: CatalogService }) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: Static<typeof ProductParams>; Querystring: ProductQuery }>(
      '/products/:productId',
      {
        schema: { params: ProductParams, querystring: ProductQuery, response: { 200: ProductResponse } },
        config: {
          openapi: {
            tag: 'Products',
            operationId: 'getProduct',
            summary: 'A product with one page of its variants',
            description:
              'Variants in catalogue order. Cursors are opaque and signed; a tampered or foreign cursor is 400.',
            errors: [400, 404],
            links: {
              getVariant: {
                operationId: 'getVariant',
                description: 'The first variant of this page, with its product.',
                parameters: {
                  productId: '$response.body#/data/product/id',
                  variantId: '$response.body#/data/product/variants/0/id',
                },
              },
              getNextPage: {
                operationId: 'getProduct',
                description: 'The next page of variants (`meta.nextCursor` is null on the last page).',
                parameters: { productId: '$response.body#/data/product/id', cursor: '$response.body#/meta/nextCursor' },
              },
              ...inventoryLinks('$response.body#/data/product/variants/0'),
            },
          },
        },
      },
      (request, reply) =>
        sendWhenReady(
          deps.catalog.getProduct(request.principal.shopId, request.params.productId, request.query),
          (page) => reply.type(JSON_TYPE).send(successJson(request, page.json)),
        ),
    );
  };
}
