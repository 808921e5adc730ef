import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { Keyring } from '../../secrets/keyring.js';
import type { Db } from '../../store/db.js';
import { storeEvent } from '../../store/repositories/platform-events.js';
import { findShopifyConnectionByStore } from '../../store/repositories/shopify-connections.js';
import { variantOfInventoryItem } from './inventory-items.js';
import { parseWebhookJson } from './webhook-json.js';
import { meaningOfWebhook } from './webhook-topics.js';

/** One delivery as it reached Tare: its headers (names in lower case) and its body's bytes. */
export interface WebhookDelivery {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export type WebhookAnswer =
  { status: 200; outcome: 'stored' | 'duplicate' | 'ignored'; detail: string } | { status: 400 | 401; message: string };

/**
 * Shopify's headers come in two families: `X-Shopify-Topic` for webhooks
 * (https://shopify.dev/docs/apps/build/webhooks/delivery-structure#headers) and `Shopify-Topic`
 * for Events deliveries, which send both (https://shopify.dev/docs/apps/build/events/verify-deliveries;
 * Shopify's own library reads either: Shopify/shopify-app-js,
 * packages/apps/shopify-api/lib/webhooks/header-names.ts). Node gives header names in lower case.
 */
function header(delivery: WebhookDelivery, name: string): string | undefined {
  for (const family of ['x-shopify-', 'shopify-']) {
    const value = delivery.headers[`${family}${name}`];
    const text = Array.isArray(value) ? value[0] : value;
    if (text?.trim()) return text.trim();
  }
  return undefined;
}

/**
 * Whether `signature` (base64) is the HMAC-SHA256 of the raw body with the app's client secret,
 * compared in constant time. https://shopify.dev/docs/apps/build/webhooks/verify-deliveries
 */
export function verifyShopifyHmac(body: Buffer, signature: string, clientSecret: string): boolean {
  const expected = createHmac('sha256', clientSecret).update(body).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Takes a webhook (PRODUCT.md §16): an unsigned or wrongly signed delivery, or one from a store
 * Tare does not know, is 401 and stores nothing; a signed body that is not JSON, or lacks what
 * its topic carries, is 400; a topic or level Tare does not follow is 200 and stores nothing;
 * anything else is stored in the inbox, once per webhook id, and answered at once: processing
 * is the inbox worker's, so the answer never waits for Shopify or for stock bookings.
 */
export function createShopifyWebhookIntake(deps: { db: Db; keyring: Keyring; logger: Logger }) {
  const { db, keyring, logger } = deps;
  return async function receive(delivery: WebhookDelivery): Promise<WebhookAnswer> {
    const store = header(delivery, 'shop-domain');
    const signature = header(delivery, 'hmac-sha256');
    if (!store || !signature) return { status: 401, message: 'The webhook is not signed.' };
    const connection = await findShopifyConnectionByStore(db, store, keyring);
    if (!connection || !verifyShopifyHmac(delivery.body, signature, connection.clientSecret)) {
      // The store is named for the operator; the signature tells nothing and is left out.
      logger.warn(
        { store, knownStore: connection !== undefined },
        'shopify webhook refused: signature does not verify',
      );
      return { status: 401, message: 'The webhook signature does not verify.' };
    }
    const topic = header(delivery, 'topic');
    if (!topic) return { status: 400, message: 'The webhook names no topic (X-Shopify-Topic).' };
    let body: unknown;
    try {
      body = parseWebhookJson(delivery.body.toString('utf8'));
    } catch {
      return { status: 400, message: 'The webhook body is not JSON.' };
    }
    const shopId = connection.shopId;
    const meaning = await meaningOfWebhook(topic, body, {
      variantOfInventoryItem: (inventoryItemId) => variantOfInventoryItem(db, shopId, inventoryItemId),
    });
    if (meaning.kind === 'ignored') return { status: 200, outcome: 'ignored', detail: meaning.reason };
    if (meaning.kind === 'invalid')
      return { status: 400, message: `The ${topic} webhook is invalid: ${meaning.message}.` };
    // The webhook id names the delivery and stays the same on Shopify's retries of it.
    const eventId = header(delivery, 'webhook-id') ?? header(delivery, 'event-id');
    if (!eventId || eventId.length > 200) {
      return { status: 400, message: 'The webhook has no id of at most 200 characters (X-Shopify-Webhook-Id).' };
    }
    const stored = await storeEvent(db, { shopId, eventId, topic: meaning.topic, payload: meaning.payload });
    return {
      status: 200,
      outcome: stored ? 'stored' : 'duplicate',
      detail: `${topic} → ${meaning.topic}`,
    };
  };
}
export type ShopifyWebhookIntake = ReturnType<typeof createShopifyWebhookIntake>;
