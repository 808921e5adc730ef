/**
 * POST /webhooks/shopify against forged and replayed deliveries: the signature covers only the
 * body, so the body's shop must be the header's store; destructive topics must be fresh and
 * shop/redact waits for an uninstall; strangers are refused before their body is read, and
 * their failures spend the same budget per address as failed API keys.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { storeEvent } from '../../src/store/repositories/platform-events.js';
import { markConnectionFailed, saveShopifyConnection } from '../../src/store/repositories/shopify-connections.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, startTestServer } from '../support/harness.js';
import { connectedShop, deliver, freshAddress, inboxRows, testKeyring } from './webhook-support.js';

const HOUR = 60 * 60_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe.each(testDrivers())('Shopify webhook intake against forgeries on %s', (driver) => {
  const { keyring, env } = testKeyring();
  let db: Db;
  let server: RunningServer;
  beforeAll(async () => {
    db = await driver.create();
    server = await startTestServer(db, env);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  /** A second store of the same app: connected with the first one's client secret. */
  async function sameAppShop(secret: string) {
    const seeded = await seedShop(db);
    const store = `store-${randomUUID().slice(0, 8)}.myshopify.com`;
    await saveShopifyConnection(db, seeded.shopId, { store, accessToken: 'shpat_d', clientSecret: secret }, keyring);
    return { ...seeded, store };
  }
  const uninstall = (shopId: string) => markConnectionFailed(db, shopId, 'uninstalled', 'app/uninstalled');
  const shopExists = async (shopId: string) =>
    (await db.query('SELECT 1 FROM shops WHERE id = $1', [shopId])).rows.length === 1;
  const connectionStatus = async (shopId: string) =>
    (await db.query<{ status: string }>('SELECT status FROM shopify_connections WHERE shop_id = $1', [shopId])).rows[0]
      ?.status;

  it('when a delivery signed for one store is replayed under another store’s header, then 401 and nothing is stored or deleted', async () => {
    const c = await connectedShop(db, keyring);
    const d = await sameAppShop(c.clientSecret);
    await uninstall(d.shopId); // shop/redact would be honoured for D
    const e = await sameAppShop(c.clientSecret); // installed: app/uninstalled would stop it
    const bodies: [string, string][] = [
      ['shop/redact', JSON.stringify({ shop_id: 1, shop_domain: c.store })],
      ['customers/redact', JSON.stringify({ shop_id: 1, shop_domain: c.store, customer: { id: 7 } })],
      ['customers/data_request', JSON.stringify({ shop_id: 1, shop_domain: c.store, customer: { id: 7 } })],
      ['app/uninstalled', JSON.stringify({ id: 1, myshopify_domain: c.store, domain: 'c.example' })],
    ];
    for (const victim of [d, e]) {
      for (const [topic, body] of bodies) {
        const replayed = await deliver(server, { store: victim.store, topic, body, secret: c.clientSecret });
        expect(replayed.status, topic).toBe(401);
        expect(replayed.body).toMatchObject({
          error: { code: 'unauthorized', message: expect.stringContaining(topic) },
        });
      }
      expect(await inboxRows(db, victim.shopId)).toEqual([]);
    }
    expect(await shopExists(d.shopId)).toBe(true);
    expect(await connectionStatus(e.shopId)).toBe('active');
    // The same bodies under their own store's header are taken (C is installed: its redact is ignored).
    const own = await deliver(server, {
      store: c.store,
      topic: 'app/uninstalled',
      body: bodies[3]![1],
      secret: c.clientSecret,
    });
    expect(own).toMatchObject({ status: 200, body: { data: { outcome: 'stored' } } });
  });

  it('when a body that must name its shop does not, then 400 and nothing is stored', async () => {
    const shop = await connectedShop(db, keyring);
    for (const [topic, body] of [
      ['shop/redact', '{"shop_id": 1}'],
      ['customers/redact', '{"shop_id": 1, "shop_domain": 7, "customer": {"id": 7}}'],
      ['app/uninstalled', '{"id": 1, "domain": "shop.example"}'],
    ] as const) {
      const answer = await deliver(server, { store: shop.store, topic, body, secret: shop.clientSecret });
      expect(answer, topic).toMatchObject({ status: 400, body: { error: { code: 'bad_request' } } });
    }
    expect(await inboxRows(db, shop.shopId)).toEqual([]);
  });

  it('when shop/redact arrives while the app is installed, then it is acknowledged and nothing is stored; once uninstalled, it is stored', async () => {
    const shop = await connectedShop(db, keyring);
    const body = JSON.stringify({ shop_id: 1, shop_domain: shop.store });
    const early = await deliver(server, { store: shop.store, topic: 'shop/redact', body, secret: shop.clientSecret });
    expect(early).toMatchObject({ status: 200, body: { data: { outcome: 'ignored' } } });
    expect(await inboxRows(db, shop.shopId)).toEqual([]);

    await uninstall(shop.shopId);
    const due = await deliver(server, { store: shop.store, topic: 'shop/redact', body, secret: shop.clientSecret });
    expect(due).toMatchObject({ status: 200, body: { data: { outcome: 'stored' } } });
  });

  it('when the app is installed again before a stored shop/redact is processed, then nothing is deleted', async () => {
    const shop = await connectedShop(db, keyring);
    // Stored while the app was uninstalled; the connection is active again (the worker may run any time).
    await storeEvent(db, { shopId: shop.shopId, eventId: randomUUID(), topic: 'shop_redact', payload: {} });
    await server.services.inbox.drainNow();
    expect(await shopExists(shop.shopId)).toBe(true);
    expect(await inboxRows(db, shop.shopId)).toEqual([
      expect.objectContaining({ topic: 'shop_redact', status: 'processed' }),
    ]);
  });

  it('when app/uninstalled or shop/redact was triggered outside the span of Shopify’s retries, then nothing stops or is deleted', async () => {
    const shop = await connectedShop(db, keyring);
    const uninstalled = JSON.stringify({ id: 1, myshopify_domain: shop.store });
    const send = (triggeredAt: string | null, topic = 'app/uninstalled', body = uninstalled) =>
      deliver(server, { store: shop.store, topic, body, secret: shop.clientSecret, triggeredAt });
    for (const stale of [ago(4 * HOUR + 6 * 60_000), ago(-6 * 60_000), ago(30 * 24 * HOUR)]) {
      expect(await send(stale), stale).toMatchObject({ status: 200, body: { data: { outcome: 'ignored' } } });
    }
    for (const broken of [null, 'yesterday', '2026-01-01']) {
      expect(await send(broken), String(broken)).toMatchObject({
        status: 400,
        body: { error: { code: 'bad_request' } },
      });
    }
    await uninstall(shop.shopId);
    const redact = JSON.stringify({ shop_id: 1, shop_domain: shop.store });
    expect(await send(ago(5 * HOUR), 'shop/redact', redact)).toMatchObject({ body: { data: { outcome: 'ignored' } } });
    expect(await inboxRows(db, shop.shopId)).toEqual([]);
    // A retry late in Shopify's span (with its original Triggered-At) is still taken.
    expect(await send(ago(3 * HOUR + 55 * 60_000))).toMatchObject({ body: { data: { outcome: 'stored' } } });
  });

  it('when an order replay has a stale Triggered-At, then it is stored all the same (events are triggers, not destructive)', async () => {
    const shop = await connectedShop(db, keyring);
    const answer = await deliver(server, {
      store: shop.store,
      topic: 'orders/create',
      body: '{"id": 5001}',
      secret: shop.clientSecret,
      triggeredAt: ago(30 * 24 * HOUR),
    });
    expect(answer).toMatchObject({ status: 200, body: { data: { outcome: 'stored' } } });
  });

  /** Sends the headers of a POST declaring `declared` bytes, and a few of them; resolves with the answer's status. */
  function postWithoutBody(headers: Record<string, string>, declared: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const url = new URL(`${server.url}/webhooks/shopify`);
      const request = httpRequest(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'content-length': String(declared) },
          localAddress: freshAddress(),
        },
        (response) => {
          resolve(response.statusCode ?? 0);
          response.resume();
          request.destroy();
        },
      );
      request.once('error', (error) => (request.destroyed ? undefined : reject(error)));
      // The rest of the body never comes: only an answer given before reading it arrives.
      request.write('{"id": 1');
    });
  }

  it('when a delivery is unsigned or names no connected store, then it is answered 401 before its body is read', async () => {
    const shop = await connectedShop(db, keyring);
    const eightMiB = 8 * 1024 * 1024;
    const common = { 'x-shopify-topic': 'orders/create', 'x-shopify-webhook-id': randomUUID() };
    expect(
      await postWithoutBody(
        { ...common, 'x-shopify-shop-domain': 'nobody.myshopify.com', 'x-shopify-hmac-sha256': 'x' },
        eightMiB,
      ),
    ).toBe(401);
    expect(await postWithoutBody({ ...common, 'x-shopify-shop-domain': shop.store }, eightMiB)).toBe(401);
    // A connected store's delivery declaring more than the limit is 413, also before reading it.
    expect(
      await postWithoutBody(
        { ...common, 'x-shopify-shop-domain': shop.store, 'x-shopify-hmac-sha256': 'x' },
        eightMiB + 1,
      ),
    ).toBe(413);
  });

  /** GET /api/v1/app-settings with `key` from the loopback address `from`; resolves with the status. */
  function apiStatus(key: string, from: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const url = new URL(`${server.url}/api/v1/app-settings?locale=en`);
      const request = httpRequest(
        url,
        { headers: { authorization: `Bearer ${key}` }, localAddress: from },
        (response) => {
          response.resume().once('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.once('error', reject);
      request.end();
    });
  }

  it('when an address keeps failing signatures, then past the budget it is 429 on webhooks and API keys alike, and other addresses are unaffected', async () => {
    const shop = await connectedShop(db, keyring);
    const from = freshAddress();
    const forged = { store: shop.store, topic: 'orders/create', body: '{"id": 5001}', secret: 'not-the-secret', from };
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await deliver(server, forged)).status);
    // An unknown store is a failure too.
    statuses.push((await deliver(server, { ...forged, store: 'nobody.myshopify.com' })).status);
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(401));
    expect(statuses[60]).toBe(429);
    const limited = await deliver(server, { ...forged, secret: shop.clientSecret });
    expect(limited.status).toBe(429); // refused before the signature is checked
    expect(limited.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
    expect(limited.body).toMatchObject({ error: { code: 'rate_limited' } });
    // It is the budget of failed API keys: a key from that address waits too, one from elsewhere does not.
    expect(await apiStatus(shop.key, from)).toBe(429);
    expect(await apiStatus(shop.key, freshAddress())).toBe(200);
    const other = await deliver(server, { ...forged, secret: shop.clientSecret, from: freshAddress() });
    expect(other).toMatchObject({ status: 200, body: { data: { outcome: 'stored' } } });
  });

  it('when one address fails with bad API keys and bad signatures in turn, then both spend one budget of 60', async () => {
    const shop = await connectedShop(db, keyring);
    const from = freshAddress();
    const forged = { store: shop.store, topic: 'orders/create', body: '{"id": 5001}', secret: 'not-the-secret', from };
    let firstLimited = -1;
    for (let i = 0; i < 120 && firstLimited < 0; i++) {
      const status =
        i % 2 === 0 ? await apiStatus(`apik_not_a_key_${i}`, from) : (await deliver(server, forged)).status;
      if (status === 429) firstLimited = i;
      else expect(status, `attempt ${i}`).toBe(401);
    }
    // A budget each would take 60 of both (120 failures); one shared budget stops after its 60,
    // give or take the token a second it refills while the loop runs.
    expect(firstLimited).toBeGreaterThanOrEqual(60);
    expect(firstLimited).toBeLessThan(75);
  });
});
