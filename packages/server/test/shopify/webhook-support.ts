import { createHmac, randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
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
  /** When Shopify triggered it (ISO 8601): now when not given, no header when null. */
  triggeredAt?: string | null;
  /** The local (loopback) address to send from: each address has its own failure budget. */
  from?: string;
}

/** POSTs one delivery to /webhooks/shopify as Shopify would; returns status, headers and parsed body. */
export async function deliver(server: RunningServer, delivery: Delivery) {
  const prefix = delivery.family ?? 'x-shopify';
  const headers: Record<string, string> = {
    'content-type': delivery.contentType ?? 'application/json',
    [`${prefix}-topic`]: delivery.topic,
    [`${prefix}-shop-domain`]: delivery.store,
    [`${prefix}-webhook-id`]: delivery.webhookId ?? randomUUID(),
    [`${prefix}-api-version`]: '2026-04',
  };
  const triggeredAt = delivery.triggeredAt === undefined ? new Date().toISOString() : delivery.triggeredAt;
  if (triggeredAt !== null) headers[`${prefix}-triggered-at`] = triggeredAt;
  const signature = delivery.signature === undefined ? sign(delivery.body, delivery.secret ?? '') : delivery.signature;
  if (signature !== null) headers[`${prefix}-hmac-sha256`] = signature;
  const answer = await post(`${server.url}/webhooks/shopify`, headers, delivery.body, delivery.from);
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  return { status: answer.status, headers: answer.headers, body };
}

/** A POST over node:http, which (unlike fetch) can send from a chosen local address. */
function post(url: string, headers: Record<string, string>, body: string, from?: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers, localAddress: from }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    request.once('error', reject);
    request.end(body);
  });
}

let lastAddress = 0;
/** A loopback address no other delivery of this process was sent from (a failure budget of its own). */
export function freshAddress(): string {
  lastAddress++;
  return `127.1.${Math.floor(lastAddress / 250) + 1}.${(lastAddress % 250) + 1}`;
}

export async function inboxRows(db: Db, shopId: string) {
  const { rows } = await db.query<{ event_id: string; topic: string; payload: unknown; status: string; held: boolean }>(
    `SELECT event_id, topic, payload, status, next_attempt_at = 'infinity' AS held
     FROM platform_events WHERE shop_id = $1 ORDER BY id`,
    [shopId],
  );
  return rows;
}
