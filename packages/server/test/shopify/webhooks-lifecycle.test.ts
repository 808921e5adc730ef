/**
 * Webhooks end to end with the fake Shopify delivering signed webhooks to a running Tare:
 * uninstalling stops the shop's sync (its events are kept, held, and released on reconnecting),
 * the compliance topics are acknowledged keeping no customer data, shop/redact deletes the
 * shop's data, and no secret ever reaches the logs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { loadShopifyConnection, saveShopifyConnection } from '../../src/store/repositories/shopify-connections.js';
import { testDrivers } from '../support/databases.js';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';
import { seedShop } from '../support/harness.js';
import { deliver, inboxRows, testKeyring } from './webhook-support.js';

describe.each(testDrivers({ citus: true }))('Shopify webhooks end to end on $name', (driver) => {
  const { keyring, env } = testKeyring();
  let db: Db;
  let fake: FakeShopify;
  let server: RunningServer;
  let logs: string[];
  let shopId: string;

  beforeEach(async () => {
    db = await driver.create();
    fake = await startFakeShopify({
      store: 'lifecycle.myshopify.com',
      accessToken: 'shpat_lifecycle_token_0123456789',
    });
    logs = [];
    // Everything the server logs, at the most talkative level.
    const logger = createLogger('trace', { write: (line: string) => void logs.push(line) });
    const config = loadConfig({ PORT: '0', TARE_RECONCILE_MINUTES: '0', ...env });
    server = await startServer({ config, logger, db, keyring });
    ({ shopId } = await seedShop(db));
    await saveShopifyConnection(
      db,
      shopId,
      {
        store: fake.store,
        accessToken: fake.accessToken,
        clientSecret: fake.clientSecret,
        adminApiUrl: fake.adminApiUrl,
      },
      keyring,
    );
    fake.webhookAddress = `${server.url}/webhooks/shopify`;
  });
  afterEach(async () => {
    await fake?.close();
    await server?.close();
    await db?.close();
  });

  const settle = async () => {
    await fake.webhooks.settled();
    await server.services.inbox.drainNow();
  };

  it('when the app is uninstalled, then sync stops with its reason, later events are held, and reconnecting releases them', async () => {
    fake.uninstall();
    await settle();
    expect(await loadShopifyConnection(db, shopId, keyring)).toMatchObject({
      status: 'uninstalled',
      lastError: expect.stringContaining('uninstalled'),
    });

    // A late order webhook (signed with the client secret, which an uninstall does not change).
    const late = await deliver(server, {
      store: fake.store,
      topic: 'orders/create',
      body: '{"id": 5101}',
      secret: fake.clientSecret,
    });
    expect(late.status).toBe(200);
    await server.services.inbox.drainNow();
    expect((await inboxRows(db, shopId)).find((row) => row.topic === 'order_placed')).toMatchObject({
      status: 'pending',
      held: true,
    });

    // The merchant installs the app again: a new token.
    fake.rotateToken('shpat_lifecycle_token_reinstalled');
    await saveShopifyConnection(
      db,
      shopId,
      {
        store: fake.store,
        accessToken: fake.accessToken,
        clientSecret: fake.clientSecret,
        adminApiUrl: fake.adminApiUrl,
      },
      keyring,
    );
    expect((await loadShopifyConnection(db, shopId, keyring))?.status).toBe('active');
    const released = (await inboxRows(db, shopId)).find((row) => row.topic === 'order_placed');
    expect(released?.held).toBe(false);
  });

  it('when Shopify asks for or to redact a customer’s data, then it is acknowledged and nothing about the customer is kept in the inbox', async () => {
    fake.customersDataRequest({ id: '77', email: 'jane@example.com', phone: '+15550100', orderIds: ['5001'] });
    fake.customersRedact({ id: '77', email: 'jane@example.com', phone: '+15550100', orderIds: ['5001'] });
    await settle();
    const rows = await inboxRows(db, shopId);
    expect(rows.map(({ topic, status, payload }) => ({ topic, status, payload }))).toEqual([
      { topic: 'customers_data_request', status: 'processed', payload: {} },
      // Of a redaction, Tare keeps the ids of the orders whose customer it forgets (admin's list).
      { topic: 'customers_redact', status: 'processed', payload: { orderIds: ['5001'] } },
    ]);
    const { rows: everything } = await db.query<{ dump: string }>(
      `SELECT string_agg(t::text, ' ') AS dump FROM platform_events t WHERE shop_id = $1`,
      [shopId],
    );
    expect(everything[0]?.dump).not.toContain('jane@example.com');
  });

  it('when Shopify sends shop/redact after the app was uninstalled, then every row Tare holds for the shop is deleted', async () => {
    // Some history first: a ledger entry, an event, the inventory-item mapping.
    await db.query(
      `INSERT INTO shopify_inventory_items (shop_id, variant_id, inventory_item_id) VALUES ($1, '2001', 'gid://shopify/InventoryItem/1')`,
      [shopId],
    );
    const other = await seedShop(db);
    // Shopify sends shop/redact 48 hours after the app was uninstalled.
    fake.uninstall();
    await settle();
    fake.shopRedact();
    await settle();

    const { rows: tables } = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
       WHERE column_name = 'shop_id' AND table_schema = current_schema() ORDER BY table_name`,
    );
    expect(tables.length).toBeGreaterThan(10);
    const left: Record<string, number> = {};
    for (const { table_name } of tables) {
      const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table_name} WHERE shop_id = $1`, [
        shopId,
      ]);
      if (Number(rows[0]!.n) > 0) left[table_name] = Number(rows[0]!.n);
    }
    expect(left).toEqual({});
    const { rows: shops } = await db.query('SELECT id FROM shops WHERE id = ANY($1::bigint[])', [
      [shopId, other.shopId],
    ]);
    expect(shops).toEqual([{ id: other.shopId }]); // another shop is untouched
  });

  it('when webhooks arrive signed and unsigned, then neither the access token nor the client secret is logged', async () => {
    addCoffeeShop(fake);
    fake.placeOrder({ locationId: '70001', lines: [{ variantId: '2001', quantity: 1 }] });
    await fake.webhooks.sendRaw({ topic: 'orders/create', body: '{"id": 1}', hmac: 'forged' });
    await deliver(server, { store: fake.store, topic: 'orders/create', body: '{"id":', secret: fake.clientSecret });
    await settle();
    const text = logs.join('');
    expect(text).toContain('/webhooks/shopify'); // the requests were logged…
    expect(text).toContain('signature does not verify');
    expect(text).not.toContain(fake.accessToken); // …without the secrets
    expect(text).not.toContain(fake.clientSecret);
    expect(text).not.toContain(fake.sign('{"id": 1}'));
  });
});
