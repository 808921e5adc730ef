import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../../errors.js';
import { type SandboxStorefront, storefrontRoot } from '../../../services/sandbox-storefront.js';
import { sendStorefrontPage } from './storefront-render.js';
import { cartToken, keepCart, type StorefrontRequest } from './storefront-routes.js';

const base = '/sandbox/storefront/:domain';
type ProductRoute = {
  Params: { domain: string; productId: string };
  Querystring: { variant?: string; locale?: string };
};

/** The storefront's pages: the shop's products, a product with the picker, the cart, the checkout. */
export function storefrontPageRoutes({ storefront }: { storefront: SandboxStorefront }) {
  const page = (request: StorefrontRequest, title: string) => ({
    title,
    domain: request.params.domain,
    root: storefrontRoot(request.params.domain),
    locale: 'en',
  });
  /** Errors of a page are pages too: the shop or product unknown (404), an empty cart at checkout (422). */
  const failed = (request: StorefrontRequest, reply: FastifyReply, error: unknown) => {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const title = error.status === 404 ? 'Not found' : 'Cannot check out';
    return sendStorefrontPage(reply, error.status, 'message', { ...page(request, title), message: error.message });
  };

  return async (app: FastifyInstance) => {
    app.get(base, (request: StorefrontRequest, reply) => reply.redirect(storefrontRoot(request.params.domain), 301));

    app.get(`${base}/`, async (request: StorefrontRequest, reply) => {
      try {
        const { shop, products } = await storefront.frontPage(request.params.domain);
        return sendStorefrontPage(reply, 200, 'front', {
          ...page(request, shop.domain),
          locale: shop.defaultLocale,
          products,
        });
      } catch (error) {
        return failed(request, reply, error);
      }
    });

    app.get<ProductRoute>(`${base}/products/:productId`, async (request, reply) => {
      try {
        const found = await storefront.productPage(
          request.params.domain,
          request.params.productId,
          request.query.variant,
        );
        return sendStorefrontPage(reply, 200, 'product', {
          ...page(request, found.product.title),
          locale: found.shop.defaultLocale,
          picker: true,
          requestedLocale: typeof request.query.locale === 'string' ? request.query.locale : undefined,
          ...found,
        });
      } catch (error) {
        return failed(request, reply, error);
      }
    });

    app.get(`${base}/cart`, async (request: StorefrontRequest, reply) => {
      try {
        const { token, cart } = await storefront.readCart(request.params.domain, cartToken(request));
        keepCart(request, reply, token);
        return sendStorefrontPage(reply, 200, 'cart', { ...page(request, 'Cart'), cart });
      } catch (error) {
        return failed(request, reply, error);
      }
    });

    // A form post (the customer's name and e-mail, both optional): places the order and shows it;
    // the cart is consumed, so a second post is 422.
    app.post(`${base}/checkout`, async (request: StorefrontRequest, reply) => {
      try {
        const form = (request.body ?? {}) as Record<string, unknown>;
        const text = (name: string) => (typeof form[name] === 'string' ? form[name] : undefined);
        const order = await storefront.checkout(request.params.domain, cartToken(request), {
          name: text('name'),
          email: text('email'),
        });
        keepCart(request, reply, null);
        return sendStorefrontPage(reply, 200, 'order', { ...page(request, `Order ${order.id}`), order });
      } catch (error) {
        return failed(request, reply, error);
      }
    });
  };
}
