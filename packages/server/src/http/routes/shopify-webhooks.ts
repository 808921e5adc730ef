import type { FastifyInstance } from 'fastify';
import { AppError, errors } from '../../errors.js';
import type { ShopifyWebhookIntake } from '../../platform/shopify/webhook-intake.js';
import { failure, success } from '../envelope.js';

/**
 * Shopify's deliveries are JSON orders, products and levels: larger than an API request may be
 * (a product with many variants), so their limit is at least this, whatever TARE_BODY_LIMIT says.
 */
const WEBHOOK_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * POST /webhooks/shopify (PRODUCT.md §16): outside /api/v1 and its API keys, since Shopify signs
 * each delivery instead. The body is kept as the bytes that arrived, whatever its media type: the
 * signature is over those bytes, and JSON is parsed only once it verifies.
 */
export function shopifyWebhookRoutes(deps: { shopifyWebhooks: ShopifyWebhookIntake; bodyLimit: number }) {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.post<{ Body: Buffer | undefined }>(
      '/webhooks/shopify',
      { bodyLimit: Math.max(deps.bodyLimit, WEBHOOK_BODY_LIMIT), schema: { hide: true } },
      async (request, reply) => {
        const answer = await deps.shopifyWebhooks({
          headers: request.headers,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
        if (answer.status !== 200) {
          const error =
            answer.status === 401 ? new AppError('unauthorized', answer.message) : errors.badRequest(answer.message);
          return reply.status(error.status).send(failure(request, error));
        }
        request.log.info({ outcome: answer.outcome, detail: answer.detail }, 'shopify webhook');
        return success(request, { outcome: answer.outcome });
      },
    );
  };
}
