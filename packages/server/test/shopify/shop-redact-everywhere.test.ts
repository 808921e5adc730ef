/**
 * A shop deleted by shop/redact is gone at once on every instance: two instances on one
 * database, each with warm caches of the shop's key, products and settings, refuse its key on
 * the next request after the deletion (on PostgreSQL: after the HEARD_WAIT_MS every change that
 * must reach all instances at once is given, as a key revocation is).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { HEARD_WAIT_MS } from '../../src/services/heard-lease.js';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { markConnectionFailed } from '../../src/store/repositories/shopify-connections.js';
import { createPostgresDatabase, type TestDriver, testDrivers } from '../support/databases.js';
import { call, startTestServer } from '../support/harness.js';
import { connectedShop, deliver, testKeyring } from './webhook-support.js';

/** Two handles on one database: PGlite's single one twice, or two PostgreSQL connections. */
async function oneDatabaseTwice(driver: TestDriver): Promise<{ dbs: [Db, Db]; close(): Promise<void> }> {
  if (driver.name === 'pglite') {
    const db = await driver.create();
    return { dbs: [db, db], close: () => db.close() };
  }
  const database = await createPostgresDatabase();
  const first = await openPostgres({ connectionString: database.url });
  await migrate(first);
  const second = await openPostgres({ connectionString: database.url });
  return {
    dbs: [first, second],
    async close() {
      await first.close();
      await second.close();
      await database.drop();
    },
  };
}

describe.each(testDrivers())('shop/redact on two instances on %s', (driver) => {
  const { keyring, env } = testKeyring();
  let database: Awaited<ReturnType<typeof oneDatabaseTwice>>;
  let servers: RunningServer[];
  beforeEach(async () => {
    database = await oneDatabaseTwice(driver);
    servers = [await startTestServer(database.dbs[0], env), await startTestServer(database.dbs[1], env)];
  });
  afterEach(async () => {
    for (const server of servers ?? []) await server.close();
    await database?.close();
  });

  const reads = ['/api/v1/app-settings?locale=en', '/api/v1/products/1001'];
  const statuses = async (key: string) => {
    const answers: number[] = [];
    for (const server of servers) for (const path of reads) answers.push((await call(server, path, { key })).status);
    return answers;
  };

  it('when shop/redact deletes a shop, then its key is refused and nothing of it is served from a cache, on both instances', async () => {
    const [db] = database.dbs;
    const shop = await connectedShop(db, keyring);
    // A second key of the shop: every one of its keys is announced, not only the first.
    const second = (await createApiKey(db, { shopDomain: shop.domain })).token;
    // Warm every cache of both instances: the keys, the settings, the product.
    for (const key of [shop.key, second]) {
      expect(await statuses(key)).toEqual([200, 200, 200, 200]);
      expect(await statuses(key)).toEqual([200, 200, 200, 200]);
    }

    await markConnectionFailed(db, shop.shopId, 'uninstalled', 'app/uninstalled');
    const body = JSON.stringify({ shop_id: 1, shop_domain: shop.store });
    const redact = await deliver(servers[0]!, {
      store: shop.store,
      topic: 'shop/redact',
      body,
      secret: shop.clientSecret,
    });
    expect(redact).toMatchObject({ status: 200, body: { data: { outcome: 'stored' } } });
    // Either instance's inbox worker may take the event: both are drained.
    await Promise.all(servers.map((server) => server.services.inbox.drainNow()));
    const { rows } = await db.query('SELECT 1 FROM shops WHERE id = $1', [shop.shopId]);
    expect(rows).toEqual([]);
    if (driver.name === 'postgres') await sleep(HEARD_WAIT_MS);

    // Every instance dropped what it cached of the shop (the same notification drops its products and
    // settings) and its key: no key cache still verifies it, whatever route it is presented to.
    for (const server of servers) {
      expect(server.services.shops.peek(shop.shopId)).toBeUndefined();
      expect(server.services.authenticator.authenticateCached(shop.key)).toBeUndefined();
      expect(server.services.authenticator.authenticateCached(second)).toBeUndefined();
    }
    expect(await statuses(shop.key)).toEqual([401, 401, 401, 401]);
    expect(await statuses(second)).toEqual([401, 401, 401, 401]);
  });
});
