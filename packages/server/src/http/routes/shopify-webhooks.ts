import type { FastifyInstance } from 'fastify';
import { AppError, errors } from '../../errors.js';
import type { AdmittedDelivery, ShopifyWebhookIntake } from '../../platform/shopify/webhook-intake.js';
import { success } from '../envelope.js';
import type { FailureBudget } from '../plugins/failure-budget.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the webhook route's onRequest hook, from the headers alone. */
    shopifyDelivery: AdmittedDelivery | null;
  }
}

/**
 * Shopify's deliveries are JSON orders, products and levels: larger than an API request may be
 * (a product with many variants), so their limit is at least this, whatever TARE_BODY_LIMIT says.
 * Only a delivery whose headers name a connected store is read at all (see `onRequest` below).
 */
const WEBHOOK_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * POST /webhooks/shopify (PRODUCT.md §16): outside /api/v1 and its API keys, since Shopify signs
 * each delivery instead. The body is kept as the bytes that arrived, whatever its media type: the
 * signature is over those bytes, and JSON is parsed only once it verifies.
 *
 * Every 401 spends a token of the sender's failure budget, the one failed API keys spend: an
 * address past it is answered 429 before its headers are even looked up.
 */
export function shopifyWebhookRoutes(deps: {
  shopifyWebhooks: ShopifyWebhookIntake;
  failureBudget: FailureBudget;
  bodyLimit: number;
}) {
  const { shopifyWebhooks: intake, failureBudget: budget } = deps;

  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.decorateRequest('shopifyDelivery', null);
    app.post<{ Body: Buffer | undefined }>(
      '/webhooks/shopify',
      {
        bodyLimit: Math.max(deps.bodyLimit, WEBHOOK_BODY_LIMIT),
        schema: { hide: true },
        // Before the body is read: a delivery for no connected store, or from an address past
        // its budget, is answered without buffering a byte of it.
        onRequest: async (request) => {
          const blocked = budget.blocked(request);
          if (blocked) throw blocked;
          const admission = await intake.admit(request.headers);
          if (admission.status !== 'admitted') {
            throw await budget.spend(request, new AppError('unauthorized', admission.message));
          }
          request.shopifyDelivery = admission.delivery;
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const answer = await intake.receive(request.shopifyDelivery!, { headers: request.headers, body });
        if (answer.status !== 200) {
          throw answer.status === 401
            ? await budget.spend(request, new AppError('unauthorized', answer.message))
            : errors.badRequest(answer.message);
        }
        request.log.info({ outcome: answer.outcome, detail: answer.detail }, 'shopify webhook');
        return success(request, { outcome: answer.outcome });
      },
    );
  };
}
