import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CommandContext } from '../../src/cli/command.js';
import { platformCommand } from '../../src/cli/platform.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/main.js';
import { createKeyring, type Keyring } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import { createApiKey } from '../../src/services/api-keys.js';
import type { Db } from '../../src/store/db.js';
import { addCoffeeShop } from './fake-shopify/catalog.js';
import { type FakeShopifyOptions, startFakeShopify } from './fake-shopify/index.js';
import { coffeeShop } from './platform-simulator.js';

export const LOC = '70001';

/**
 * A coffee shop on the fake Shopify, followed by a running Tare: variant 2001 by the kg and
 * 2002 by 100 g at location 70001, with Tare's exact stock given (kg, g) and Shopify showing
 * its whole units. `settle()` lets everything in flight land: webhooks, the inbox, the outbox.
 * `addShop()` connects another coffee shop, on a fake Shopify of its own, to the same Tare;
 * `logger` replaces the silent one (to read what the server logs).
 */
export async function startShopifyShop(db: Db, options: CoffeeShopOptions & { logger?: Logger }) {
  const key = SecretKey.generate();
  const keyring = createKeyring({ current: key });
  const config = loadConfig({ PORT: '0', TARE_RECONCILE_MINUTES: '0', TARE_SECRETS_KEY: key.exportBase64() });
  const logger = options.logger ?? createLogger('silent');
  let server: RunningServer = await startServer({ config, logger, db, keyring });
  const running = { db, keyring, server: () => server };
  const first = await connectCoffeeShop(running, options);
  const others: ConnectedShop[] = [];
  return {
    ...first,
    get server() {
      return server;
    },
    keyring,
    /** Another coffee shop on its own fake Shopify, followed by the same Tare. */
    async addShop(more: CoffeeShopOptions): Promise<ConnectedShop> {
      const shop = await connectCoffeeShop(running, more);
      others.push(shop);
      return shop;
    },
    /** Stops Tare (as a crash would leave the store) and starts it again on the same store. */
    async restart() {
      await server.close();
      server = await startServer({ config, logger, db, keyring });
      for (const shop of [first, ...others]) shop.fake.webhookAddress = `${server.url}/webhooks/shopify`;
    },
    async close() {
      await server.close();
      for (const shop of [first, ...others]) await shop.fake.close();
    },
  };
}

interface CoffeeShopOptions {
  stock: { kg: number; g?: number };
  platformStockChanges?: 'adopt' | 'override';
  fake?: FakeShopifyOptions;
}

/** A coffee shop imported into a running Tare and connected to a fake Shopify of its own. */
async function connectCoffeeShop(
  running: { db: Db; keyring: Keyring; server: () => RunningServer },
  options: CoffeeShopOptions,
) {
  const { db, keyring } = running;
  const fake = await startFakeShopify({ store: `coffee-${randomUUID().slice(0, 8)}.myshopify.com`, ...options.fake });
  addCoffeeShop(fake);
  fake.webhookAddress = `${running.server().url}/webhooks/shopify`;

  const shop = {
    ...coffeeShop(options.stock, { platformStockChanges: options.platformStockChanges }),
    platform: {
      kind: 'shopify' as const,
      store: fake.store,
      accessToken: fake.accessToken,
      clientSecret: fake.clientSecret,
      adminApiUrl: fake.adminApiUrl,
    },
  };
  const checked = validateImport({ shops: [shop] });
  if (!checked.ok) throw new Error(`bad fixture: ${JSON.stringify(checked.issues)}`);
  const summary = await importCatalog({ db, gateway: running.server().services.gateway, keyring }, checked.value);
  const shopId = summary.shops[0]!.id;
  const { token: apiKey } = await createApiKey(db, { shopDomain: shop.domain });

  /** Lets every webhook, event and push in flight land (backoff skipped), until nothing moves. */
  async function settle(): Promise<void> {
    for (let round = 0; round < 30; round++) {
      await fake.webhooks.settled();
      await running.server().services.inbox.drainNow();
      await running.server().services.projection.drainNow();
      await running.server().services.metafields.drainNow();
      const { rows } = await db.query<{ waiting: string }>(
        `SELECT (SELECT count(*) FROM platform_events WHERE shop_id = $1 AND status = 'pending')
              + (SELECT count(*) FROM projection_outbox WHERE shop_id = $1)
              + (SELECT count(*) FROM metafield_outbox WHERE shop_id = $1 AND failed_at IS NULL) AS waiting`,
        [shopId],
      );
      if (Number(rows[0]!.waiting) === 0 && fake.webhooks.pending.length === 0) return;
      await db.query(`UPDATE platform_events SET next_attempt_at = now() WHERE shop_id = $1 AND status = 'pending'`, [
        shopId,
      ]);
      await db.query('UPDATE projection_outbox SET next_attempt_at = now() WHERE shop_id = $1', [shopId]);
      await db.query('UPDATE metafield_outbox SET next_attempt_at = now() WHERE shop_id = $1', [shopId]);
    }
    const { rows } = await db.query(
      `SELECT 'event' AS what, topic AS name, last_error FROM platform_events WHERE shop_id = $1 AND status = 'pending'
       UNION ALL SELECT 'push', variant_id, last_error FROM projection_outbox WHERE shop_id = $1
       UNION ALL SELECT 'metafield', owner_id, last_error FROM metafield_outbox WHERE shop_id = $1 AND failed_at IS NULL`,
      [shopId],
    );
    throw new Error(`the Shopify shop did not settle: ${JSON.stringify(rows)}`);
  }

  /** Tare's exact total of a variant at the location, as decimal text in its unit. */
  async function total(variantId: string): Promise<string> {
    const { rows } = await db.query<{ total: string }>(
      'SELECT total FROM inventory_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3',
      [shopId, LOC, variantId],
    );
    return rows[0]!.total;
  }

  /** Runs `tare platform connect` with the fake store's credentials, as an operator would; what it printed. */
  async function connect() {
    const out: string[] = [];
    const err: string[] = [];
    const ctx: CommandContext = {
      db,
      gateway: running.server().services.gateway,
      keyring,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      changed: () => {},
    };
    const code = await platformCommand(ctx, [
      'connect',
      ...['--shop', shop.domain, '--store', fake.store, '--access-token', fake.accessToken],
      ...['--client-secret', fake.clientSecret, '--admin-api-url', fake.adminApiUrl],
    ]);
    return { code, out, err, ctx };
  }

  await settle();
  return {
    fake,
    shopId,
    domain: shop.domain,
    /** The import file's shop, to import it again with changes (as the admin's saves do). */
    importShop: shop,
    apiKey,
    settle,
    connect,
    total,
    /** Shopify's `available` for a variant at the location. */
    shown: (variantId: string) => fake.available(LOC, variantId),
  };
}
type ConnectedShop = Awaited<ReturnType<typeof connectCoffeeShop>>;
export type ShopifyShop = Awaited<ReturnType<typeof startShopifyShop>>;

/** The `_svc_data` line property of a weight measurement. */
export function svcData(value: number, unit: string): Record<string, string> {
  return { _svc_data: JSON.stringify({ measurement: { type: 'weight', dimensions: [{ unit, value }] } }) };
}
