import type { Logger } from 'pino';
import { createCursorCodec } from './domain/cursor.js';
import type { PlatformGateway } from './platform/gateway.js';
import { importCatalog, type ImportOptions } from './services/catalog-import/import-catalog.js';
import type { ImportDocument } from './services/catalog-import/import-document.js';
import { createPlatforms } from './platform/platforms.js';
import { createEventDelivery, type DeliveryMode } from './platform/local/sandbox/event-delivery.js';
import { createAuthenticator } from './services/api-keys.js';
import { createAppSettingsService } from './services/app-settings.js';
import { createCatalogService } from './services/catalog.js';
import { API_KEYS_CHANGED, CATALOG_CHANGED } from './services/change-channels.js';
import { createHeardLease } from './services/heard-lease.js';
import { createInboxWorker } from './services/events/inbox-worker.js';
import { startReconciler } from './services/events/reconcile.js';
import { startAutovacuum } from './services/autovacuum.js';
import { startIdempotencyReaper } from './services/idempotency-reaper.js';
import { createPushWorker } from './services/projection/push-worker.js';
import { createMetafieldWorker } from './services/storefront/metafield-worker.js';
import { createInventoryReader } from './services/inventory/read-inventory.js';
import { createStockItemReader } from './services/stock-items/read-stock-items.js';
import { createInventoryWriter } from './services/inventory/write-inventory.js';
import { createKeyUsageRecorder } from './services/key-usage.js';
import { createOrderEditor } from './services/orders/edit-order.js';
import { createOrderReader } from './services/orders/read-order.js';
import { createSandboxShop } from './services/sandbox-shop.js';
import { createShopDirectory } from './services/shop-directory.js';
import type { Keyring } from './secrets/keyring.js';
import type { Db, Unlisten } from './store/db.js';
import { serverSecret } from './store/repositories/server-secrets.js';

export interface ServiceOptions {
  /** Server-side cache lifetime of product, variant and settings answers (≤ 300 s). */
  productCacheSeconds: number;
  /** How long idempotency keys are remembered before the reaper deletes them. */
  idempotencyRetentionHours: number;
  /** Opens the sealed secrets of platform connections (Shopify's access tokens). */
  keyring: Keyring;
  /** The platform gateway for every shop; each shop's own platform when not given (tests pass a failing one). */
  gateway?: PlatformGateway;
  /** How the sandbox shop delivers its events (TARE_SANDBOX_DELIVERY); `orderly` when not given. */
  sandboxDelivery?: DeliveryMode;
  /** Minutes between periodic reconciliations (0: none). */
  reconcileMinutes?: number;
}

/**
 * Wires the services on one store and subscribes them to change notifications, so a change
 * committed by any instance or CLI empties the caches of every instance.
 */
export async function composeServices(db: Db, logger: Logger, options: ServiceOptions) {
  const cacheTtlMs = options.productCacheSeconds * 1000;
  const platforms = createPlatforms(db, options.keyring);
  const gateway = options.gateway ?? platforms.gateway;
  // Key records are cached and dropped by NOTIFY. On PostgreSQL several instances may share the
  // store and a revoked key must fail on all of them once the revocation returned: the cache
  // answers only while this instance has proof it heard every notification until a moment ago
  // (createHeardLease; revokers wait that long). PGlite has a single process (CLI commands are
  // forwarded to it), where NOTIFY arrives before the next request.
  const heard = db.driver === 'postgres' ? createHeardLease({ db }) : undefined;
  const authenticator = createAuthenticator({ db, cacheTtlMs: 60_000, heard });
  const keyUsage = createKeyUsageRecorder({ db, log: logger });
  const shops = createShopDirectory({ db, cacheTtlMs: 60_000 });
  const cursors = createCursorCodec(await serverSecret(db, 'cursor'));
  const catalog = createCatalogService({ db, shops, cursors, cacheTtlMs });
  const appSettings = createAppSettingsService({ db, shops, cacheTtlMs });

  const catalogChanged = (shopId?: string) => {
    shops.invalidate(shopId);
    catalog.invalidate(shopId);
    appSettings.invalidate(shopId);
  };
  const writeInventory = createInventoryWriter({ db, gateway });
  const readInventory = createInventoryReader({ db, cursors });
  const readStockItems = createStockItemReader({ db });
  const readOrder = createOrderReader({ db, gateway, shops });
  const editOrder = createOrderEditor({ db, gateway });
  const reaper = startIdempotencyReaper({ db, logger, retentionHours: options.idempotencyRetentionHours });
  // PostgreSQL vacuums its tables itself; PGlite has no daemon for it.
  const autovacuum = db.driver === 'pglite' ? startAutovacuum({ db, logger }) : undefined;
  // Platform events are applied in the background by every instance (each event once).
  const inbox = createInboxWorker({ db, gateway, logger });
  const stopInbox = await inbox.start();
  // Whole units queued for remote platforms (Shopify) are pushed in the background too.
  const projection = createPushWorker({
    db,
    push: platforms.shopify.pushQueued,
    readLevel: platforms.shopify.readLevel,
    logger,
  });
  const stopProjection = await projection.start();
  // And the storefront metafields of shops on Shopify (PRODUCT.md §18), by the same rules.
  const metafields = createMetafieldWorker({ db, write: platforms.shopify.writeMetafields, logger });
  const stopMetafields = await metafields.start();
  const reconciler = startReconciler({ db, gateway, logger, everyMinutes: options.reconcileMinutes ?? 0 });
  const sandboxShop = createSandboxShop({
    db,
    shops,
    delivery: createEventDelivery({ db, mode: options.sandboxDelivery ?? 'orderly', logger }),
  });

  const unlisten: Unlisten[] = [
    await db.listen(CATALOG_CHANGED, (shopId) => catalogChanged(shopId || undefined)),
    await db.listen(API_KEYS_CHANGED, (keyId) => authenticator.forget(keyId || undefined)),
    ...(heard ? [await heard.start()] : []),
  ];

  return {
    db,
    gateway,
    authenticator,
    keyUsage,
    shops,
    catalog,
    appSettings,
    writeInventory,
    readInventory,
    readStockItems,
    readOrder,
    editOrder,
    inbox,
    projection,
    metafields,
    sandboxShop,
    idempotencyRetentionHours: options.idempotencyRetentionHours,
    /** Opens sealed platform credentials (the admin shows a Shopify token masked, as `tare platform show`). */
    keyring: options.keyring,
    /**
     * Writes a validated import document (the CLI's `tare import`, and the admin's edits). This
     * instance drops the changed shops' caches at once (its next request, say the redirect after
     * a form, must see the change); the NOTIFY sent at commit tells every other one.
     */
    async importCatalog(doc: ImportDocument, importOptions?: ImportOptions) {
      const summary = await importCatalog({ db, gateway, keyring: options.keyring }, doc, importOptions);
      for (const shop of summary.shops) if (shop.changes > 0) catalogChanged(shop.id);
      return summary;
    },
    /** Drops every cache at once, for changes made in this process. */
    invalidateAll() {
      catalogChanged();
      authenticator.forget();
    },
    async stop() {
      reaper.stop();
      reconciler.stop();
      await autovacuum?.stop();
      await sandboxShop.stop();
      await stopInbox().catch((err: unknown) => logger.warn({ err }, 'could not stop the event inbox'));
      await stopProjection().catch((err: unknown) => logger.warn({ err }, 'could not stop the projection outbox'));
      await stopMetafields().catch((err: unknown) => logger.warn({ err }, 'could not stop the metafield outbox'));
      // Shutting down must not fail because the store is already gone (a dropped connection,
      // a closed PGlite): unsubscribing is moot then, and the pending usage flush logs its own error.
      const results = await Promise.allSettled(unlisten.map((stop) => stop()));
      for (const result of results) {
        if (result.status === 'rejected') logger.warn({ err: result.reason }, 'could not unsubscribe from the store');
      }
      await keyUsage.stop();
    },
  };
}
export type Services = Awaited<ReturnType<typeof composeServices>>;
