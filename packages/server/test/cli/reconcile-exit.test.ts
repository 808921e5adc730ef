/**
 * `tare reconcile` exits 1 when a shop could not be compared with its platform (Shopify out of
 * reach, a refused token), after printing what it did compare: a cron job must not take a
 * comparison that never happened for "no drift".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/cli/command.js';
import { reconcileCommand } from '../../src/cli/reconcile.js';
import { createPlatforms } from '../../src/platform/platforms.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { addCoffeeShop } from '../support/fake-shopify/catalog.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';
import { seedShop } from '../support/harness.js';
import { coffeeShop } from '../support/platform-simulator.js';

describe.each(testDrivers({ citus: true }))('tare reconcile’s exit code on $name', ({ create }) => {
  let db: Db;
  let fake: FakeShopify;
  const keyring = createKeyring({ current: SecretKey.generate() });
  let local: string;
  let shopify: string;
  beforeAll(async () => {
    db = await create();
    fake = await startFakeShopify({ store: `reconcile-${Math.random().toString(36).slice(2, 8)}.myshopify.com` });
    addCoffeeShop(fake);
    local = (await seedShop(db, coffeeShop({ kg: 5 }))).domain;
    const shop = {
      ...coffeeShop({ kg: 10, g: 1000 }),
      platform: {
        kind: 'shopify',
        store: fake.store,
        accessToken: fake.accessToken,
        clientSecret: fake.clientSecret,
        adminApiUrl: fake.adminApiUrl,
      },
    };
    const checked = validateImport({ shops: [shop] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    const { shops } = await importCatalog(
      { db, gateway: createPlatforms(db, keyring).gateway, keyring },
      checked.value,
    );
    shopify = shop.domain;
    // The fake already shows the 10 whole units of each level: as if the queued pushes had landed.
    await db.query('DELETE FROM projection_outbox WHERE shop_id = $1', [shops[0]!.id]);
  });
  afterAll(async () => {
    await fake?.close();
    await db?.close();
  });

  async function run(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const ctx: CommandContext = {
      db,
      gateway: createPlatforms(db, keyring).gateway,
      keyring,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      changed: () => {},
    };
    return { code: await reconcileCommand(ctx, args), out, err };
  }

  it('when every shop is compared, then it exits 0', async () => {
    const result = await run([]);
    expect(result.err).toEqual([]);
    expect(result.out).toContain(`${shopify}: 2 levels, 0 drifting`);
    expect(result.code).toBe(0);
  });

  it('when Shopify is down for one shop, then the others are still reported and it exits 1 naming that shop and why', async () => {
    fake.faults.serverErrors(1, 503);
    const result = await run([]);
    expect(result.out).toContain(`${local}: 1 level, 0 drifting`);
    expect(result.out).toContain(`${shopify}: 0 levels, 0 drifting`);
    expect(result.out).toContain('  not compared: Shopify is unavailable: Shopify answered HTTP 503.');
    expect(result.err).toEqual([
      `error: could not compare 1 shop(s) with their platform: ${shopify} (Shopify is unavailable: Shopify answered HTTP 503.)`,
    ]);
    expect(result.code).toBe(1);

    // The shop that could be compared alone is a success.
    expect((await run(['--shop', local])).code).toBe(0);
  });

  it('when the token is refused, then --json still prints the report, and it exits 1', async () => {
    fake.revokeToken();
    const result = await run(['--json', '--shop', shopify]);
    const [report] = JSON.parse(result.out.join('\n'));
    expect(report).toMatchObject({ shop: shopify, levels: 0, unavailable: expect.stringMatching(/HTTP 401/) });
    expect(result.err).toEqual([expect.stringMatching(/^error: could not compare 1 shop\(s\) .*HTTP 401/)]);
    expect(result.code).toBe(1);
  });
});
