import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import { composeServices, type Services } from './compose.js';
import type { Config } from './config.js';
import { buildApp } from './http/app.js';
import type { RateLimitStore } from './http/plugins/rate-limit.js';
import type { PlatformGateway } from './platform/gateway.js';
import { createShopifyWebhookIntake } from './platform/shopify/webhook-intake.js';
import { type Keyring, keyringFor } from './secrets/keyring.js';
import type { Db } from './store/db.js';
import { migrate } from './store/migrate.js';
import { openDb } from './store/open-db.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  services: Services;
  /** Stops accepting, finishes in-flight requests, then closes what this server opened. */
  close(): Promise<void>;
}

/** How long closing waits for in-flight requests before it closes their connections. */
const CLOSE_GRACE_MS = 5000;

/**
 * The composition root: config → store → platform and services → app → listen. Tests pass
 * their own `db` (left open on close: the caller owns it).
 */
export async function startServer(options: {
  config: Config;
  logger: Logger;
  db?: Db;
  /** The platform gateway for every shop; defaults to each shop's own platform (tests pass a failing one). */
  gateway?: PlatformGateway;
  /** Routes that need the services but are not part of the public app (the CLI hand-off). */
  extraRoutes?: (services: Services) => FastifyPluginAsync;
  /** The keys that open platform credentials; from the configuration when not given. */
  keyring?: Keyring;
}): Promise<RunningServer> {
  const { config, logger } = options;
  const db = options.db ?? (await openDb(config, (message) => logger.warn(message)));
  if (!options.db) {
    const applied = await migrate(db);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  // ioredis is loaded only when configured.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        commandTimeout: 250,
      })
    : undefined;
  redis?.on('error', (err) => logger.warn({ err }, 'redis error'));
  const rateLimitStore: RateLimitStore = redis ? { kind: 'redis', client: redis } : { kind: 'memory' };
  const keyring = options.keyring ?? keyringFor(config, db.driver);

  const services = await composeServices(db, logger, {
    productCacheSeconds: config.productCacheSeconds,
    idempotencyRetentionHours: config.idempotencyRetentionHours,
    keyring,
    gateway: options.gateway,
    sandboxDelivery: config.sandboxDelivery,
    reconcileMinutes: config.reconcileMinutes,
  });
  const app = await buildApp({
    ...services,
    logger,
    bodyLimit: config.bodyLimit,
    rateLimitStore,
    sandbox: config.sandbox,
    shopifyWebhooks: createShopifyWebhookIntake({ db, keyring, logger }),
  });
  if (options.extraRoutes) await app.register(options.extraRoutes(services));
  const address = await app.listen({ port: config.port, host: config.host });
  const url = address.replace('[::1]', '127.0.0.1');

  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    services,
    close() {
      closing ??= (async () => {
        // In-flight requests get a grace period; a connection still open after it (a keep-alive
        // socket a client never let go idle) must not hold the shutdown.
        const deadline = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
        deadline.unref();
        await app.close();
        clearTimeout(deadline);
        await services.stop();
        redis?.disconnect();
        if (!options.db) await db.close();
      })();
      return closing;
    },
  };
}
