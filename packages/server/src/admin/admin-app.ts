import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { createTokenBuckets, type RateLimitStore } from '../http/plugins/rate-limit.js';
import { type AdminSessions, createAdminSessions, type SessionLifetimes } from '../services/admin-sessions.js';
import type { Authenticator } from '../services/api-keys.js';
import type { AppSettingsService } from '../services/app-settings.js';
import type { ImportOptions, ImportSummary } from '../services/catalog-import/import-catalog.js';
import type { ImportDocument } from '../services/catalog-import/import-document.js';
import type { CatalogService } from '../services/catalog.js';
import type { OrderEditor } from '../services/orders/edit-order.js';
import type { OrderReader } from '../services/orders/read-order.js';
import type { InventoryReader } from '../services/inventory/read-inventory.js';
import type { InventoryWriter } from '../services/inventory/write-inventory.js';
import type { Keyring } from '../secrets/keyring.js';
import type { Db } from '../store/db.js';
import { serverSecret } from '../store/repositories/server-secrets.js';
import { adminErrorHandler, notFoundPage } from './error-pages.js';
import { createFormIds, type FormIds } from './forms.js';
import { UPLOT_DIR, WEB_DIR } from './render.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { homeRoutes } from './routes/home.js';
import { inventoryRoutes } from './routes/inventory.js';
import { labelRoutes } from './routes/labels/label-routes.js';
import { orderRoutes } from './routes/orders/order-routes.js';
import { settingsRoutes } from './routes/settings.js';
import { passwordRoutes } from './routes/password.js';
import { productRoutes } from './routes/products/product-routes.js';
import { signInRoutes } from './routes/sign-in.js';
import { stockItemRoutes } from './routes/stock-items/stock-item-routes.js';
import { CSRF_COOKIE, resolveStaff, SIGNED_OUT } from './staff.js';

export interface AdminDeps {
  db: Db;
  rateLimitStore: RateLimitStore;
  authenticator: Authenticator;
  catalog: CatalogService;
  appSettings: AppSettingsService;
  readInventory: InventoryReader;
  writeInventory: InventoryWriter;
  readOrder: OrderReader;
  editOrder: OrderEditor;
  /** The import's own writer: every catalog or settings change made here is an import of it. */
  importCatalog: (doc: ImportDocument, options?: ImportOptions) => Promise<ImportSummary>;
  idempotencyRetentionHours: number;
  /** Opens sealed platform credentials, to show them masked (settings: the platform connection). */
  keyring: Keyring;
  /** Session lifetimes; 30 minutes idle and 12 hours in all when not given. */
  sessionLifetimes?: SessionLifetimes;
  /** TARE_SANDBOX: the home page links the sandbox shops' storefronts only while they are served. */
  sandbox?: boolean;
}

export interface AdminContext extends AdminDeps {
  sessions: AdminSessions;
  /** Sign-in attempts, per account and per client address (the rate-limit store: shared on Redis). */
  signInBuckets: ReturnType<typeof createTokenBuckets>;
  /** Ids of rendered forms, bound to what each form acts on. */
  formIds: FormIds;
}

/**
 * The merchant admin (PRODUCT.md §17) under /admin: server-rendered pages whose forms work
 * without JavaScript. Every change goes through the services the API and the CLI use.
 */
export function adminApp(deps: AdminDeps) {
  return async (app: FastifyInstance) => {
    const ctx: AdminContext = {
      ...deps,
      sessions: createAdminSessions({ db: deps.db, lifetimes: deps.sessionLifetimes }),
      signInBuckets: createTokenBuckets(deps.rateLimitStore),
      formIds: createFormIds(await serverSecret(deps.db, 'admin-forms')),
    };
    // Pages for people, not part of the API: kept out of the OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
    // Synchronizer tokens bound to the session: a token rendered for one session (or for the
    // signed-out sign-in form) is refused in any other. The secret sits in its own HttpOnly cookie.
    await app.register(fastifyCsrf, {
      cookieKey: CSRF_COOKIE,
      cookieOpts: { path: '/admin', httpOnly: true, sameSite: 'strict' },
      getUserInfo: (request) => request.staff?.tokenSha256.toString('hex') ?? SIGNED_OUT,
      csrfOpts: { hmacKey: await serverSecret(deps.db, 'admin-csrf') },
    });
    await app.register(fastifyStatic, {
      root: [`${WEB_DIR}assets`, UPLOT_DIR],
      prefix: '/admin/assets/',
      maxAge: '1h',
      index: false,
      list: false,
    });
    app.setErrorHandler(adminErrorHandler);
    app.decorateRequest('staff', undefined);
    app.addHook('onRequest', resolveStaff(ctx));

    app.get('/admin', (_request, reply) => reply.redirect('/admin/api-keys', 303));
    await app.register(homeRoutes(ctx));
    await app.register(signInRoutes(ctx));
    await app.register(passwordRoutes(ctx));
    await app.register(apiKeyRoutes(ctx));
    await app.register(inventoryRoutes(ctx));
    await app.register(stockItemRoutes(ctx));
    await app.register(settingsRoutes(ctx));
    await app.register(orderRoutes(ctx));
    await app.register(productRoutes(ctx));
    await app.register(labelRoutes(ctx));
    // Any method: a form posted to a page that does not exist is answered in HTML, not the API's JSON.
    app.all('/admin/*', (request, reply) => notFoundPage(request, reply));
  };
}
