import { createHmac, randomUUID } from 'node:crypto';
import type { RunningServer } from '../../src/main.js';
import { createKeyring, type Keyring } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import type { Db } from '../../src/store/db.js';
import { saveShopifyConnection } from '../../src/store/repositories/shopify-connections.js';
import { seedShop } from '../support/harness.js';

/** One operator key for a test file: the server and the repository calls share it. */
export function testKeyring(): { keyring: Keyring; env: Record<string, string> } {
  const key = SecretKey.generate();
  return { keyring: createKeyring({ current: key }), env: { TARE_SECRETS_KEY: key.exportBase64() } };
}

/** A seeded shop connected to a store of its own, with secrets unique to it. */
export async function connectedShop(db: Db, keyring: Keyring) {
  const seeded = await seedShop(db);
  const suffix = randomUUID().slice(0, 8);
  const connection = {
    store: `store-${suffix}.myshopify.com`,
    accessToken: `shpat_${randomUUID().replaceAll('-', '')}`,
    clientSecret: `shpss_${randomUUID().replaceAll('-', '')}`,
  };
  await saveShopifyConnection(db, seeded.shopId, connection, keyring);
  return { ...seeded, ...connection };
}

/** The base64 HMAC-SHA256 of the body's bytes under the secret, as Shopify signs a delivery. */
export function sign(body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

export interface Delivery {
  store: string;
  topic: string;
  body: string;
  secret?: string;
  webhookId?: string;
  /** `x-shopify` (webhooks) or `shopify` (Events deliveries). */
  family?: 'x-shopify' | 'shopify';
  /** Headers to send instead of the signature (to test missing or wrong ones). */
  signature?: string | null;
  contentType?: string;
}

/** POSTs one delivery to /webhooks/shopify as Shopify would; returns status and parsed body. */
export async function deliver(server: RunningServer, delivery: Delivery) {
  const prefix = delivery.family ?? 'x-shopify';
  const headers: Record<string, string> = {
    'content-type': delivery.contentType ?? 'application/json',
    [`${prefix}-topic`]: delivery.topic,
    [`${prefix}-shop-domain`]: delivery.store,
    [`${prefix}-webhook-id`]: delivery.webhookId ?? randomUUID(),
    [`${prefix}-api-version`]: '2026-04',
  };
  const signature = delivery.signature === undefined ? sign(delivery.body, delivery.secret ?? '') : delivery.signature;
  if (signature !== null) headers[`${prefix}-hmac-sha256`] = signature;
  const response = await fetch(`${server.url}/webhooks/shopify`, { method: 'POST', headers, body: delivery.body });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

export async function inboxRows(db: Db, shopId: string) {
  const { rows } = await db.query<{ event_id: string; topic: string; payload: unknown; status: string; held: boolean }>(
    `SELECT event_id, topic, payload, status, next_attempt_at = 'infinity' AS held
     FROM platform_events WHERE shop_id = $1 ORDER BY id`,
    [shopId],
  );
  return rows;
}
