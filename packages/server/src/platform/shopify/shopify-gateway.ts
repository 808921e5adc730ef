import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { PushOutcome } from '../../services/projection/push-worker.js';
import type { Keyring } from '../../secrets/keyring.js';
import type { Db, Queryable } from '../../store/db.js';
import type { QueuedMetafield } from '../../store/repositories/metafield-outbox.js';
import { queueProjections, type QueuedPush } from '../../store/repositories/projection-outbox.js';
import {
  loadShopifyConnection,
  markConnectionFailed,
  markConnectionVerified,
} from '../../store/repositories/shopify-connections.js';
import { type PlatformGateway, PlatformUnavailableError } from '../gateway.js';
import {
  createShopifyAdmin,
  type ShopifyAdmin,
  ShopifyThrottledError,
  ShopifyUnauthorizedError,
  ShopifyUnavailableError,
} from './admin-client.js';
import { pushShopifyLevels, readShopifyLevels } from './levels.js';
import { type MetafieldOutcome, writeShopifyMetafields } from './metafields.js';
import { writeShopifyUnitPrices } from './unit-prices.js';
import { editShopifyOrder } from './order-edit.js';
import { readShopifyOrder, shopifyOrdersChangedSince } from './orders.js';
import { readShopifyVariantPrices } from './variant-prices.js';

export interface ShopifyGatewayOptions {
  db: Db;
  /** Opens the connections' sealed secrets. */
  keyring: Keyring;
  /** Where Admin API calls go through (tests and benchmarks count or fail them). */
  fetch?: typeof fetch;
}

/**
 * Shopify behind the gateway port (PRODUCT.md §16). Whole units are not written in Tare's
 * transaction: they are queued in the projection outbox with it, and `pushQueued` (the push
 * worker's sender) writes them with `inventorySetQuantities`. Orders are read and edited through
 * the Admin API. Every Shopify failure becomes a PlatformUnavailableError, which the callers
 * already turn into retries (the inbox, the outbox) or a 503 (an order edit); a revoked token
 * also stops the shop's sync, visible in `tare platform show`.
 */
export function createShopifyGateway(options: ShopifyGatewayOptions) {
  const { db } = options;
  // Taken while no transaction runs: a revoked token is recorded after the caller's transaction
  // (which rolls back) whatever it was, never inside it.
  const outsideTransactions = AsyncLocalStorage.snapshot();

  async function connectionOf(tx: Queryable, shopId: string) {
    const connection = await loadShopifyConnection(tx, shopId, options.keyring);
    if (!connection) throw new PlatformUnavailableError('The shop is not connected to Shopify.');
    if (connection.status !== 'active') {
      throw new PlatformUnavailableError(`The shop's Shopify sync is stopped (${connection.status}).`);
    }
    return connection;
  }

  /** Runs a call on the shop's store, turning Shopify's failures into the port's. */
  async function onShopify<T>(tx: Queryable, shopId: string, call: (admin: ShopifyAdmin) => Promise<T>): Promise<T> {
    try {
      const connection = await connectionOf(tx, shopId);
      const result = await call(createShopifyAdmin(connection, { fetch: options.fetch }));
      // Credentials saved unchecked (an import) are verified by their first call that succeeds.
      if (connection.verifiedAt === null) {
        void outsideTransactions(() => markConnectionVerified(db, shopId)).catch(() => {});
      }
      return result;
    } catch (err) {
      if (err instanceof ShopifyUnauthorizedError) {
        void outsideTransactions(() => markConnectionFailed(db, shopId, 'unauthorized', err.message)).catch(
          () => {}, // the error below reaches the logs either way
        );
        throw new PlatformUnavailableError(`Shopify refused the shop's access token: ${err.message}`, { cause: err });
      }
      if (err instanceof ShopifyThrottledError || err instanceof ShopifyUnavailableError) {
        throw new PlatformUnavailableError(`Shopify is unavailable: ${err.message}`, {
          cause: err,
          retryAfterMs: err.retryAfterMs,
        });
      }
      throw err;
    }
  }

  const gateway: PlatformGateway = {
    name: 'shopify',
    async projectLevels(tx, shopId, levels, cause) {
      await queueProjections(tx, shopId, levels, cause ?? 'gid://tare/Projection');
      return { projected: levels.map(({ expected: _, ...level }) => level), moved: [] };
    },
    readLevels: (tx, shopId, levels) => onShopify(tx, shopId, (a) => readShopifyLevels(tx, a, shopId, levels)),
    ordersChangedSince: (tx, shopId, since) => onShopify(tx, shopId, (a) => shopifyOrdersChangedSince(a, since)),
    readOrder: (tx, shopId, orderId, readOptions) =>
      onShopify(tx, shopId, (a) => readShopifyOrder(a, orderId, { customer: readOptions?.customer })),
    readVariantPrices: (tx, shopId, productId) => onShopify(tx, shopId, (a) => readShopifyVariantPrices(a, productId)),
    async editOrder(tx, shopId, orderId, changes, editOptions) {
      await onShopify(tx, shopId, async (a) => {
        const order = await readShopifyOrder(a, orderId);
        if (order) await editShopifyOrder(a, order, changes, editOptions);
      });
    },
  };

  /** Writes one shop's queued levels in one call; a retry of the same batch reuses its key. */
  async function pushQueued(shopId: string, pushes: QueuedPush[]): Promise<PushOutcome[]> {
    const idempotencyKey = batchKey(shopId, pushes);
    return onShopify(db, shopId, (a) =>
      pushShopifyLevels(
        db,
        a,
        shopId,
        pushes.map((push) => ({
          locationId: push.locationId,
          variantId: push.variantId,
          available: push.available,
          expected: push.expected,
          idempotencyKey,
          referenceDocumentUri: push.cause,
        })),
      ),
    );
  }

  /**
   * Writes one shop's queued storefront metafields and unit prices (the metafield writer's
   * sender), answering in the items' order: metafields 25 a call, unit prices a call per product.
   */
  function writeMetafields(shopId: string, items: QueuedMetafield[]): Promise<MetafieldOutcome[]> {
    return onShopify(db, shopId, async (a) => {
      const isUnitPrice = (item: QueuedMetafield) => item.ownerType === 'Product';
      const metafields = await writeShopifyMetafields(
        a,
        items.filter((item) => !isUnitPrice(item)),
      );
      const unitPrices = await writeShopifyUnitPrices(a, items.filter(isUnitPrice));
      return items.map((item) => (isUnitPrice(item) ? unitPrices.shift()! : metafields.shift()!));
    });
  }

  async function readLevel(
    tx: Queryable,
    shopId: string,
    level: { locationId: string; variantId: string },
  ): Promise<number> {
    const [shown] = await gateway.readLevels(tx, shopId, [level]);
    return shown!.available;
  }

  return { gateway, pushQueued, readLevel, writeMetafields };
}

/** The same levels at the same generations make the same key; any change of a row makes another. */
function batchKey(shopId: string, pushes: QueuedPush[]): string {
  const rows = pushes.map((p) => `${p.locationId}/${p.variantId}@${p.generation}`).sort();
  return `tare-${createHash('sha256')
    .update(`${shopId}\n${rows.join('\n')}`)
    .digest('hex')
    .slice(0, 40)}`;
}
