import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { Keyring } from '../../secrets/keyring.js';
import type { Db } from '../../store/db.js';
import { storeEvent } from '../../store/repositories/platform-events.js';
import {
  findShopifyConnectionByStore,
  type ShopifyConnectionDetails,
} from '../../store/repositories/shopify-connections.js';
import { variantOfInventoryItem } from './inventory-items.js';
import { freshness } from './webhook-freshness.js';
import { parseWebhookJson } from './webhook-json.js';
import { isDestructiveTopic, meaningOfWebhook } from './webhook-topics.js';

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
function header(headers: WebhookDelivery['headers'], name: string): string | undefined {
  for (const family of ['x-shopify-', 'shopify-']) {
    const value = headers[`${family}${name}`];
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

/** A delivery whose headers name a connected store and carry a signature; its body is not read yet. */
export interface AdmittedDelivery {
  store: string;
  signature: string;
  connection: ShopifyConnectionDetails;
}

export type Admission = { status: 'admitted'; delivery: AdmittedDelivery } | { status: 401; message: string };

/**
 * Takes a webhook (PRODUCT.md §16) in two steps. `admit` reads only the headers, before the body
 * is: an unsigned delivery, or one for a store Tare has no connection for, is 401 at once, so a
 * flood of them never buffers a body. `receive` then checks the body: wrongly signed, or naming
 * another store than the header, is 401 and stores nothing; a signed body that is not JSON, or
 * lacks what its topic carries, is 400; a topic or level Tare does not follow, a destructive
 * delivery triggered outside the span of Shopify's retries, or a shop/redact for a store whose
 * app is not uninstalled is 200 and stores nothing; anything else is stored in the inbox, once
 * per webhook id, and answered at once: processing is the inbox worker's.
 */
export function createShopifyWebhookIntake(deps: { db: Db; keyring: Keyring; logger: Logger; now?: () => number }) {
  const { db, keyring, logger } = deps;
  const now = deps.now ?? Date.now;

  async function admit(headers: WebhookDelivery['headers']): Promise<Admission> {
    const store = header(headers, 'shop-domain')?.toLowerCase();
    const signature = header(headers, 'hmac-sha256');
    if (!store || !signature) return { status: 401, message: 'The webhook is not signed.' };
    const connection = await findShopifyConnectionByStore(db, store, keyring);
    if (!connection) {
      logger.warn({ store }, 'shopify webhook refused: no shop is connected to its store');
      return { status: 401, message: 'The webhook signature does not verify.' };
    }
    return { status: 'admitted', delivery: { store, signature, connection } };
  }

  async function receive(admitted: AdmittedDelivery, delivery: WebhookDelivery): Promise<WebhookAnswer> {
    const { store, connection } = admitted;
    if (!verifyShopifyHmac(delivery.body, admitted.signature, connection.clientSecret)) {
      // The store is named for the operator; the signature tells nothing and is left out.
      logger.warn({ store }, 'shopify webhook refused: signature does not verify');
      return { status: 401, message: 'The webhook signature does not verify.' };
    }
    const topic = header(delivery.headers, 'topic');
    if (!topic) return { status: 400, message: 'The webhook names no topic (X-Shopify-Topic).' };
    if (isDestructiveTopic(topic)) {
      const fresh = freshness(header(delivery.headers, 'triggered-at'), now());
      if (fresh.kind === 'invalid')
        return { status: 400, message: `The ${topic} webhook is invalid: ${fresh.message}.` };
      if (fresh.kind === 'stale') return ignored(store, `${topic} ${fresh.reason}`);
    }
    let body: unknown;
    try {
      body = parseWebhookJson(delivery.body.toString('utf8'));
    } catch {
      return { status: 400, message: 'The webhook body is not JSON.' };
    }
    const shopId = connection.shopId;
    const meaning = await meaningOfWebhook(topic, body, store, {
      variantOfInventoryItem: (inventoryItemId) => variantOfInventoryItem(db, shopId, inventoryItemId),
    });
    if (meaning.kind === 'foreign') {
      logger.warn({ store, topic }, 'shopify webhook refused: its body names another store');
      return { status: 401, message: `The ${topic} webhook is not this store's: ${meaning.message}.` };
    }
    if (meaning.kind === 'ignored') return { status: 200, outcome: 'ignored', detail: meaning.reason };
    if (meaning.kind === 'invalid')
      return { status: 400, message: `The ${topic} webhook is invalid: ${meaning.message}.` };
    // Shopify sends shop/redact 48 hours after the app is uninstalled
    // (https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance): before that, it is
    // no request of the merchant's. Acknowledged (Shopify would retry a refusal), and logged.
    if (meaning.topic === 'shop_redact' && connection.status !== 'uninstalled') {
      return ignored(
        store,
        `shop/redact while the app is installed (connection ${connection.status}); nothing deleted`,
      );
    }
    // The webhook id names the delivery and stays the same on Shopify's retries of it.
    const eventId = header(delivery.headers, 'webhook-id') ?? header(delivery.headers, 'event-id');
    if (!eventId || eventId.length > 200) {
      return { status: 400, message: 'The webhook has no id of at most 200 characters (X-Shopify-Webhook-Id).' };
    }
    const stored = await storeEvent(db, { shopId, eventId, topic: meaning.topic, payload: meaning.payload });
    return {
      status: 200,
      outcome: stored ? 'stored' : 'duplicate',
      detail: `${topic} → ${meaning.topic}`,
    };
  }

  function ignored(store: string, reason: string): WebhookAnswer {
    logger.warn({ store, reason }, 'shopify webhook ignored');
    return { status: 200, outcome: 'ignored', detail: reason };
  }

  return { admit, receive };
}
export type ShopifyWebhookIntake = ReturnType<typeof createShopifyWebhookIntake>;
