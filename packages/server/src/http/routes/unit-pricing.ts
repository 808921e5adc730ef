import {
  MEASUREMENT_TYPES,
  StructuredDataResponse,
  UNIT_CATALOGUE,
  UnitsResponse,
  VariantParams,
} from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { variantStructuredData } from '../../services/structured-data.js';
import type { ShopDirectory } from '../../services/shop-directory.js';
import type { Db } from '../../store/db.js';
import { success } from '../envelope.js';

const UNITS = MEASUREMENT_TYPES.flatMap((type) =>
  UNIT_CATALOGUE[type].units.map(({ id, factor, rec20 }) => ({ id, type, factor, rec20 })),
);

/** GET /api/v1/units and GET …/variants/{variantId}/structured-data (PRODUCT.md §5, §21). */
export function unitPricingRoutes(deps: { db: Db; shops: ShopDirectory }) {
  return async (app: FastifyInstance) => {
    app.get(
      '/units',
      {
        schema: { response: { 200: UnitsResponse } },
        config: {
          openapi: {
            tag: 'Units',
            operationId: 'listUnits',
            summary: 'Every unit with its type, exact factor and UN/ECE Recommendation 20 code',
            description: "Factors are exact decimal text relative to the type's base unit (kg, m, m2, L, s).",
            errors: [],
          },
        },
      },
      async (request) => success(request, { units: UNITS }),
    );
    app.get<{ Params: Static<typeof VariantParams> }>(
      '/products/:productId/variants/:variantId/structured-data',
      {
        schema: { params: VariantParams, response: { 200: StructuredDataResponse } },
        config: {
          openapi: {
            tag: 'Variants',
            operationId: 'getVariantStructuredData',
            summary: "A variant's offer as schema.org JSON-LD and Google Merchant Center unit pricing",
            description:
              'An `Offer` whose `UnitPriceSpecification` states the price per unit measurement (`referenceQuantity`, ' +
              "with its Rec 20 `unitCode`) and the shop's reference quantity (`valueReference`); Google's " +
              '`unit_pricing_measure` and `unit_pricing_base_measure`. Without unit pricing (off, or a time product) ' +
              'the Offer has its price alone and `merchantCenter` is null. A variant of another product is 404.',
            errors: [400, 404],
          },
        },
      },
      async (request) => {
        const { productId, variantId } = request.params;
        return success(request, await variantStructuredData(deps, request.principal.shopId, productId, variantId));
      },
    );
  };
}
