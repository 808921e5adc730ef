import { ScaleBarcodeParams, ScaleBarcodeResponse } from '@tare/contracts';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { decodeShopScaleBarcode } from '../../services/scale-barcodes/decode-scale-barcode.js';
import type { Db } from '../../store/db.js';
import { success } from '../envelope.js';

/** GET /api/v1/scale-barcodes/{code}: a scale label read into a variant and its measurement (PRODUCT.md §22). */
export function scaleBarcodeRoute(deps: { db: Db }) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: Static<typeof ScaleBarcodeParams> }>(
      '/scale-barcodes/:code',
      {
        schema: { params: ScaleBarcodeParams, response: { 200: ScaleBarcodeResponse } },
        config: {
          openapi: {
            tag: 'Scale labels',
            operationId: 'getScaleBarcode',
            summary: 'Read a scale label',
            description:
              "An EAN-13 label of the shop's scales (settings.scaleBarcodes) read into the variant whose scaleItem it " +
              "carries and its measurement in the variant's unit. A price label's measurement is price ÷ variant price × " +
              'unit measurement, exact to 9 decimal places. A code that is not 13 digits, a wrong check or verifier ' +
              'digit, or a prefix no format claims is 400 naming why; an unknown item is 404.',
            errors: [400, 404, 422],
          },
        },
      },
      async (request) =>
        success(request, await decodeShopScaleBarcode(deps.db, request.principal.shopId, request.params.code)),
    );
  };
}
