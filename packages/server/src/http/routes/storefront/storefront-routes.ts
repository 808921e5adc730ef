import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toIssues } from '../../../domain/validation.js';
import { AppError } from '../../../errors.js';
import type { SandboxStorefront } from '../../../services/sandbox-storefront.js';
import { storefrontCartRoutes } from './storefront-cart-routes.js';
import { storefrontPageRoutes } from './storefront-page-routes.js';
import { PICKER_ASSETS_DIR, STOREFRONT_WEB_DIR } from './storefront-render.js';

/** The cart cookie's name, as Shopify's. */
export const CART_COOKIE = 'cart';

export type StorefrontRequest = FastifyRequest<{ Params: { domain: string } }>;

/** The cart token the browser holds for this storefront, if any. */
export const cartToken = (request: FastifyRequest): string | undefined => request.cookies[CART_COOKIE];

/**
 * Keeps the browser's cart: the cookie is scoped to the storefront, HttpOnly (only Tare reads it)
 * and SameSite=Lax, so another site's form cannot check out or fill a visitor's cart.
 */
export function keepCart(request: StorefrontRequest, reply: FastifyReply, token: string | null): void {
  const options = {
    path: `/sandbox/storefront/${request.params.domain}/`,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
  };
  if (token === null) reply.clearCookie(CART_COOKIE, options);
  else if (cartToken(request) !== token) reply.setCookie(CART_COOKIE, token, { ...options, maxAge: 14 * 24 * 3600 });
}

/**
 * /sandbox/storefront (PRODUCT.md §18): the sandbox shop as a Shopify storefront, for people and
 * for the picker, without an API key: pages in HTML, the Ajax Cart API in Shopify's JSON shapes.
 */
export function storefrontRoutes(deps: { storefront: SandboxStorefront }) {
  return async (app: FastifyInstance) => {
    // Pages and Shopify's cart API, not Tare's API: kept out of the OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody, { bodyLimit: 1024 });
    await app.register(fastifyStatic, {
      root: [STOREFRONT_WEB_DIR, PICKER_ASSETS_DIR],
      prefix: '/sandbox/storefront/assets/',
      allowedPath: (path) => ['/storefront.css', '/tare-measure-picker.js', '/tare-measure-picker.css'].includes(path),
      maxAge: '1h',
      index: false,
      list: false,
    });
    // Shopify's Ajax API answers its errors as `{ status, message, description }`; pages answer their own.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (!request.url.split('?')[0]!.endsWith('.js')) throw error;
      const cartError = cartErrorOf(error);
      if (!cartError) throw error;
      return reply.status(cartError.status).send(cartError);
    });
    await app.register(storefrontCartRoutes(deps));
    await app.register(storefrontPageRoutes(deps));
  };
}

/**
 * A client's mistake in Shopify's words: the cart refusing the items (422, each issue with its
 * path), a body of the wrong shape (400), an unknown storefront (404). Anything else is left to
 * the application's handler (a 5xx in Tare's envelope, logged).
 */
function cartErrorOf(error: FastifyError): { status: number; message: string; description: string } | undefined {
  const describe = (issues: { path: string; message: string }[]) =>
    issues.map((issue) => `${issue.path || '/'}: ${issue.message}`).join('; ');
  if (error instanceof AppError) {
    if (error.status >= 500) return undefined;
    const issues = error.details?.['errors'] as { path: string; message: string }[] | undefined;
    const status = error.code === 'bad_request' ? 422 : error.status;
    return { status, message: 'Cart Error', description: issues ? describe(issues) : error.message };
  }
  if (error.validation) {
    return { status: 400, message: 'Bad Request', description: describe(toIssues(error.validation as never)) };
  }
  const status = error.statusCode ?? 500;
  return status >= 400 && status < 500 ? { status, message: 'Bad Request', description: error.message } : undefined;
}
