import type { FastifyInstance } from 'fastify';
import { DOCS_PATH, OPENAPI_PATH } from '../../http/openapi.js';
import { platformOf } from '../../platform/platform-of.js';
import { storefrontRoot } from '../../services/sandbox-storefront.js';
import { listShops } from '../../store/repositories/shops.js';
import type { AdminContext } from '../admin-app.js';
import { sendPage } from '../render.js';

/** Where the icon is served; every page Tare renders links it, and /favicon.ico leads to it. */
export const FAVICON_PATH = '/admin/assets/favicon.svg';

/**
 * `/`: a small page for whoever opens Tare's address in a browser, linking the admin, the API
 * docs and, while the sandbox is served, the storefront of each sandbox shop that has one.
 * Every other path outside /admin keeps the API's JSON 404.
 */
export function homeRoutes(ctx: AdminContext) {
  return async (app: FastifyInstance) => {
    app.get('/', async (_request, reply) => {
      const storefronts = ctx.sandbox
        ? (await listShops(ctx.db))
            .filter((shop) => platformOf(shop) === 'local' && shop.storefrontEnabled)
            .map((shop) => ({ domain: shop.domain, href: storefrontRoot(shop.domain) }))
        : [];
      return sendPage(reply, 200, 'home', {
        title: 'Tare',
        documentTitle: 'Tare',
        csrfToken: '',
        docsPath: DOCS_PATH,
        openApiPath: OPENAPI_PATH,
        storefronts,
      });
    });
    // Browsers ask for /favicon.ico whatever the page links: the SVG icon, not a 404.
    app.get('/favicon.ico', (_request, reply) => reply.redirect(FAVICON_PATH, 301));
  };
}
