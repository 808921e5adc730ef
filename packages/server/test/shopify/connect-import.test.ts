/**
 * The import file's `platform` object (PRODUCT.md §16): validated with errors naming the JSON
 * path and never quoting a secret; imported, it connects the shop with its secrets sealed, and
 * importing the same file twice changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';
import { loadShopifyConnection } from '../../src/store/repositories/shopify-connections.js';
import { findShopByDomain } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { shopFixture } from '../support/harness.js';

const TOKEN = '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';
const SECRET = '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';

const platform = (overrides: Record<string, unknown> = {}) => ({
  kind: 'shopify',
  store: `import-${randomUUID().slice(0, 8)}.myshopify.com`,
  accessToken: TOKEN,
  clientSecret: SECRET,
  ...overrides,
});

describe('the import file’s platform object', () => {
  const issuesOf = (shops: unknown[]) => {
    const checked = validateImport({ shops });
    return checked.ok ? [] : checked.issues;
  };

  it('when it is valid, then the file is valid', () => {
    expect(issuesOf([{ ...shopFixture(), platform: platform({ apiVersion: '2026-04' }) }])).toEqual([]);
    expect(issuesOf([{ ...shopFixture(), platform: platform({ adminApiUrl: 'http://127.0.0.1:9/g.json' }) }])).toEqual(
      [],
    );
  });

  it.each([
    [{ store: 'shop.example.com' }, '/shops/0/platform/store', /not a store host; give name\.myshopify\.com/],
    [{ store: 'a.myshopify.com.evil.example' }, '/shops/0/platform/store', /not a store host/],
    [{ apiVersion: '2026-4' }, '/shops/0/platform/apiVersion', /give YYYY-MM/],
    [{ apiVersion: '2026-13' }, '/shops/0/platform/apiVersion', /give YYYY-MM/],
    [{ adminApiUrl: 'graphql.json' }, '/shops/0/platform/adminApiUrl', /not a URL/],
    [{ adminApiUrl: 'file:///etc/passwd' }, '/shops/0/platform/adminApiUrl', /http or https/],
    [{ adminApiUrl: `https://u:${SECRET}@proxy.example/` }, '/shops/0/platform/adminApiUrl', /user name or password/],
    [{ accessToken: 'shpat_ with space' }, '/shops/0/platform/accessToken', /without spaces/],
    [{ clientSecret: '' }, '/shops/0/platform/clientSecret', /./],
    [{ kind: 'bigcommerce' }, '/shops/0/platform/kind', /./],
    [{ password: 'x' }, '/shops/0/platform/password', /./],
  ])('when the platform has %j, then the file is invalid at its path', (overrides, path, message) => {
    const issues = issuesOf([{ ...shopFixture({ orders: [] }), platform: platform(overrides) }]);
    expect(issues).toContainEqual({ path, message: expect.stringMatching(message) });
    expect(JSON.stringify(issues)).not.toContain(SECRET);
  });

  it('when a Shopify shop brings orders, or two shops name one store, then the file is invalid', () => {
    const withOrder = shopFixture({
      orders: [{ id: '5001', status: 'open', locationId: '70001', lineItems: [] }],
    });
    expect(issuesOf([{ ...withOrder, platform: platform() }])).toEqual([
      { path: '/shops/0/orders', message: "a Shopify shop's orders are read from Shopify, not imported" },
    ]);
    const shared = platform();
    const twice = issuesOf([
      { ...shopFixture(), platform: shared },
      { ...shopFixture(), platform: { ...shared, store: shared.store.toUpperCase() } },
    ]);
    expect(twice).toEqual([{ path: '/shops/1/platform/store', message: expect.stringMatching(/is also .*'s/) }]);
  });
});

describe.each(testDrivers())('importing a Shopify shop on %s', (driver) => {
  let db: Db;
  const keyring = createKeyring({ current: SecretKey.generate() });
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  const load = async (shops: unknown[]) => {
    const checked = validateImport({ shops });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    return importCatalog({ db, gateway: createLocalGateway(), keyring }, checked.value);
  };

  it('when the file is imported twice, then the shop is connected once and the second import changes nothing', async () => {
    const shop = { ...shopFixture(), platform: platform({ adminApiUrl: 'http://127.0.0.1:9/graphql.json' }) };
    const first = await load([shop]);
    expect(first.shops[0]!.changes).toBeGreaterThan(0);
    const shopId = first.shops[0]!.id;
    const { rows } = await db.query('SELECT * FROM shopify_connections WHERE shop_id = $1', [shopId]);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect((await findShopByDomain(db, shop.domain))?.platform).toBe('shopify');

    expect((await load([shop])).shops[0]!.changes).toBe(0);
    expect((await db.query('SELECT * FROM shopify_connections WHERE shop_id = $1', [shopId])).rows).toEqual(rows);

    // New credentials are a change, and are what Tare then uses.
    const rotated = { ...shop, platform: { ...shop.platform, accessToken: 'shpat_new' } };
    expect((await load([rotated])).shops[0]!.changes).toBe(1);
    expect((await loadShopifyConnection(db, shopId, keyring))?.accessToken).toBe('shpat_new');
  });

  it('when the store is already another shop’s, then the import fails and writes nothing', async () => {
    const owner = { ...shopFixture(), platform: platform() };
    await load([owner]);
    const intruder = { ...shopFixture(), platform: platform({ store: owner.platform.store }) };
    await expect(load([intruder])).rejects.toThrow(`is already connected to shop ${owner.domain}`);
    expect(await findShopByDomain(db, intruder.domain)).toBeUndefined();
  });
});
