import type { PlatformGateway } from '../../platform/gateway.js';
import { rememberInventoryItems } from '../../platform/shopify/inventory-items.js';
import type { Queryable } from '../../store/db.js';
import { forgetOrderCustomers } from '../../store/repositories/order-bookings.js';
import { holdEvent, type InboxEvent } from '../../store/repositories/platform-events.js';
import { markConnectionFailed, shopifyConnectionStatus } from '../../store/repositories/shopify-connections.js';
import { adoptVariantPrices } from '../../store/repositories/variant-prices.js';
import { CATALOG_CHANGED } from '../change-channels.js';
import { deleteShopEverywhere } from '../delete-shop.js';
import { queueStorefrontMetafields } from '../storefront/storefront-metafields.js';

/**
 * The events only Shopify sends (PRODUCT.md §16), applied in the inbox's transaction; undefined
 * for the events of §14, which every platform sends.
 */
export async function processShopifyEvent(
  tx: Queryable,
  gateway: PlatformGateway,
  event: InboxEvent,
): Promise<string | undefined> {
  switch (event.topic) {
    case 'products_updated': {
      const { productId, inventoryItems } = event.payload as {
        productId: string;
        inventoryItems: { variantId: string; inventoryItemId: string }[];
      };
      // Its prices are read from Shopify: while the sync is stopped, the event waits for it.
      const held = await holdWhileSyncStopped(tx, event);
      if (held !== undefined) return held;
      await rememberInventoryItems(tx, event.shopId, inventoryItems);
      // The merchant edits prices on Shopify, which owns them (decision 87): Tare takes them, and
      // the variants' metafields with them.
      const prices = await gateway.readVariantPrices?.(tx, event.shopId, productId);
      const repriced = prices ? await adoptVariantPrices(tx, event.shopId, productId, prices) : [];
      if (repriced.length > 0) await tx.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED, event.shopId]);
      // The product changed on Shopify: its variants' storefront metafields are compared again
      // with what Shopify was last given (only differing documents are written).
      const queued = await queueStorefrontMetafields(tx, event.shopId, { productIds: [productId] });
      const priced = repriced.length ? `, price taken from Shopify for ${repriced.join(', ')}` : '';
      return `product ${productId}: ${inventoryItems.length} variant(s) mapped to their inventory items${priced}, ${queued} metafield(s) queued`;
    }
    case 'app_uninstalled':
      // Sync stops; data, connection and events stay, so connecting again resumes where it stopped.
      await markConnectionFailed(
        tx,
        event.shopId,
        'uninstalled',
        'The app was uninstalled from the store (app/uninstalled); connect the shop again to resume its sync.',
      );
      return 'sync stopped: the app was uninstalled';
    case 'shop_redact': {
      // The intake stores it only while the app is uninstalled; the merchant may have installed
      // it again since, and this transaction reads the connection as it is now.
      const status = await shopifyConnectionStatus(tx, event.shopId);
      if (status !== 'uninstalled')
        return `nothing deleted: the app is installed again (connection ${status ?? 'none'})`;
      await deleteShopEverywhere(tx, event.shopId);
      return 'shop data deleted (shop/redact)';
    }
    case 'customers_data_request':
      // What Tare holds of a customer (the name and e-mail on the admin's list of orders) is
      // Shopify's own order data, which the merchant answers the request from.
      return 'acknowledged: Tare keeps only the name and e-mail Shopify shows on the orders';
    case 'customers_redact': {
      const { orderIds = [] } = event.payload as { orderIds?: string[] };
      const forgotten = await forgetOrderCustomers(tx, event.shopId, orderIds);
      return `customer forgotten on ${forgotten} of ${orderIds.length} order(s)`;
    }
    default:
      return undefined;
  }
}

/**
 * Holds an event of §14 while the shop's Shopify sync is stopped (app uninstalled, token
 * revoked): processing it would call Shopify in vain, and parking it after failed retries would
 * lose it. It stays pending until the shop is connected again. Returns the summary when held.
 */
export async function holdWhileSyncStopped(tx: Queryable, event: InboxEvent): Promise<string | undefined> {
  // The claim read it (in this transaction, which nothing here has changed since).
  const status = event.shopifySync !== undefined ? event.shopifySync : await shopifyConnectionStatus(tx, event.shopId);
  if (status == null || status === 'active') return undefined;
  await holdEvent(tx, event);
  return `held until the shop is connected again: its Shopify sync is stopped (${status})`;
}
