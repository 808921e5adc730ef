import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import type { Authenticator } from '../services/api-keys.js';
import type { AppSettingsService } from '../services/app-settings.js';
import type { ImportDocument } from '../services/catalog-import/import-document.js';
import type { ImportOptions, ImportSummary } from '../services/catalog-import/import-catalog.js';
import type { CatalogService } from '../services/catalog.js';
import type { Keyring } from '../secrets/keyring.js';
import type { InventoryReader } from '../services/inventory/read-inventory.js';
import type { StockItemReader } from '../services/stock-items/read-stock-items.js';
import type { InventoryWriter } from '../services/inventory/write-inventory.js';
import type { KeyUsageRecorder } from '../services/key-usage.js';
import type { OrderEditor } from '../services/orders/edit-order.js';
import type { OrderReader } from '../services/orders/read-order.js';
import type { ShopifyWebhookIntake } from '../platform/shopify/webhook-intake.js';
import type { SandboxShop } from '../services/sandbox-shop.js';
import type { ShopDirectory } from '../services/shop-directory.js';
import type { Db } from '../store/db.js';
import { adminApp } from '../admin/admin-app.js';
import { registerAuthentication } from './plugins/authenticate.js';
import { registerBodyParsers } from './plugins/body-parsers.js';
import { onFrameworkError, registerErrorHandling } from './plugins/errors.js';
import { createFailureBudget } from './plugins/failure-budget.js';
import { type RateLimitStore, registerRateLimit } from './plugins/rate-limit.js';
import { registerOpenApi } from './openapi.js';
import { protocolErrorHandler } from './protocol-errors.js';
import { requestIdFor } from './request-id.js';
import { requestLogger } from './request-logger.js';
import { createRouteTable } from './route-table.js';
import { appSettingsRoute } from './routes/app-settings.js';
import { healthRoutes } from './routes/health.js';
import { inventoryReadRoutes } from './routes/inventory-reads.js';
import { stockItemRoutes } from './routes/stock-items.js';
import { inventoryRoutes } from './routes/inventory.js';
import { orderRoutes } from './routes/orders.js';
import { registerMetrics } from './routes/metrics.js';
import { productRoute } from './routes/products.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { storefrontRoutes } from './routes/storefront/storefront-routes.js';
import { createSandboxStorefront } from '../services/sandbox-storefront.js';
import { shopifyWebhookRoutes } from './routes/shopify-webhooks.js';
import { scaleBarcodeRoute } from './routes/scale-barcodes.js';
import { unitPricingRoutes } from './routes/unit-pricing.js';
import { variantRoute } from './routes/variants.js';
import { validatorCompiler } from './validator.js';
import { registerTextRule } from './plugins/text-rule.js';

export interface AppDeps {
  logger: Logger;
  bodyLimit: number;
  db: Db;
  authenticator: Authenticator;
  keyUsage: KeyUsageRecorder;
  shops: ShopDirectory;
  catalog: CatalogService;
  appSettings: AppSettingsService;
  rateLimitStore: RateLimitStore;
  writeInventory: InventoryWriter;
  readInventory: InventoryReader;
  readStockItems: StockItemReader;
  readOrder: OrderReader;
  editOrder: OrderEditor;
  idempotencyRetentionHours: number;
  sandboxShop: SandboxShop;
  importCatalog: (doc: ImportDocument, options?: ImportOptions) => Promise<ImportSummary>;
  keyring: Keyring;
  /** Takes Shopify's webhooks (PRODUCT.md §16); POST /webhooks/shopify is not served without it. */
  shopifyWebhooks?: ShopifyWebhookIntake;
  /** TARE_SANDBOX: serve the sandbox shop under /sandbox (PRODUCT.md §15); off when not given. */
  sandbox?: boolean;
  /** Sees every route as it is registered (tests check the OpenAPI document against them). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the HTTP application from its dependencies; no environment reads, no listen. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Filled as routes register; answers 404/405 both in Fastify and for requests Node rejects.
  const routes = createRouteTable();
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.bodyLimit,
    genReqId: requestIdFor,
    childLoggerFactory: requestLogger,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    frameworkErrors: onFrameworkError,
    clientErrorHandler: protocolErrorHandler({ routes, logger: deps.logger as FastifyBaseLogger }),
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  registerTextRule(app);
  // Callback-style hooks on the hot path: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerErrorHandling(app, { bodyLimit: deps.bodyLimit, routes });
  registerBodyParsers(app);
  // Before any route: the document is generated from the routes registered after it.
  await registerOpenApi(app);

  await app.register(healthRoutes(deps));
  registerMetrics(app, deps);
  // One budget of failed authentications per address, spent by bad API keys and bad signatures alike.
  const failureBudget = createFailureBudget(deps.rateLimitStore);
  // Signed by Shopify, not by an API key: outside the authenticated scope and its rate limit.
  const { shopifyWebhooks } = deps;
  if (shopifyWebhooks) {
    await app.register(shopifyWebhookRoutes({ shopifyWebhooks, failureBudget, bodyLimit: deps.bodyLimit }));
  }
  // The merchant admin (PRODUCT.md §17): staff sessions and HTML forms, not API keys.
  await app.register(adminApp(deps));
  // The sandbox storefront (PRODUCT.md §18) is a shop's public face: no API key, as on Shopify.
  if (deps.sandbox) {
    const storefront = createSandboxStorefront({ db: deps.db, sandboxShop: deps.sandboxShop });
    await app.register(storefrontRoutes({ storefront }));
  }
  // The API and the sandbox shop share one authentication and one rate-limit budget per key.
  await app.register(async (authenticated) => {
    registerAuthentication(authenticated, { ...deps, failureBudget });
    await registerRateLimit(authenticated, { store: deps.rateLimitStore, shops: deps.shops });
    await authenticated.register(
      async (api) => {
        await api.register(appSettingsRoute(deps));
        await api.register(productRoute(deps));
        await api.register(variantRoute(deps));
        await api.register(inventoryRoutes(deps));
        await api.register(inventoryReadRoutes(deps));
        await api.register(stockItemRoutes(deps));
        await api.register(orderRoutes(deps));
        await api.register(scaleBarcodeRoute(deps));
        await api.register(unitPricingRoutes(deps));
      },
      { prefix: '/api/v1' },
    );
    if (deps.sandbox) await authenticated.register(sandboxRoutes(deps), { prefix: '/sandbox' });
  });
  return app;
}
