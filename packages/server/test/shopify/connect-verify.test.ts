/**
 * A connection is `active` only once Shopify accepted its credentials: `tare platform connect`
 * checks them before saving (test/cli/platform.test.ts); one saved unchecked (an import) is
 * `unverified` until a call with it succeeds, and `unauthorized` when Shopify refuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePlatform } from '../../src/cli/platform-show.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createShopifyGateway } from '../../src/platform/shopify/shopify-gateway.js';
import { ShopifyCredentialsError } from '../../src/platform/shopify/verify-credentials.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import { verifyShopifyConnection } from '../../src/services/shopify-connection.js';
import type { Db } from '../../src/store/db.js';
import { findShopByDomain } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify/index.js';
import { shopFixture } from '../support/harness.js';

describe('verifying a connection against the fake Shopify', () => {
  let fake: FakeShopify;
  beforeAll(async () => {
    fake = await startFakeShopify({ store: 'verify-me.myshopify.com' });
  });
  afterAll(async () => {
    await fake.close();
  });
  const values = (overrides: { accessToken?: string } = {}) => ({
    store: fake.store,
    accessToken: fake.accessToken,
    clientSecret: fake.clientSecret,
    adminApiUrl: fake.adminApiUrl,
    ...overrides,
  });

  it('when the token is the store’s, then one read of its shop says so and names the shop', async () => {
    const before = fake.calls.length;
    expect(await verifyShopifyConnection(values())).toEqual({ shopName: 'verify-me' });
    expect(fake.calls.slice(before).map((c) => [c.operationName, c.requestedCost, c.status])).toEqual([
      ['VerifyConnection', 1, 'ok'],
    ]);
  });

  it('when the token was revoked, then the check fails with Shopify’s 401', async () => {
    fake.revokeToken();
    try {
      const attempt = verifyShopifyConnection(values());
      await expect(attempt).rejects.toThrow(ShopifyCredentialsError);
      await expect(attempt).rejects.toThrow(/^Shopify refused the access token \(HTTP 401\)/);
    } finally {
      fake.rotateToken(fake.accessToken);
    }
  });
});

describe.each(testDrivers())('a connection saved unchecked on $name', ({ create }) => {
  let db: Db;
  let fake: FakeShopify;
  const keyring = createKeyring({ current: SecretKey.generate() });
  beforeAll(async () => {
    db = await create();
    fake = await startFakeShopify({ store: `unchecked-${Math.random().toString(36).slice(2, 8)}.myshopify.com` });
  });
  afterAll(async () => {
    await fake?.close();
    await db?.close();
  });

  async function importConnected(accessToken: string) {
    const shop = {
      ...shopFixture({ orders: [] }),
      platform: {
        kind: 'shopify',
        store: fake.store,
        accessToken,
        clientSecret: fake.clientSecret,
        adminApiUrl: fake.adminApiUrl,
      },
    };
    const checked = validateImport({ shops: [shop] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    await importCatalog({ db, gateway: createLocalGateway(), keyring }, checked.value);
    return (await findShopByDomain(db, shop.domain))!;
  }
  const shownStatus = async (shop: Awaited<ReturnType<typeof importConnected>>) =>
    (await describePlatform({ db, keyring }, shop)).shopify?.status;

  it('when a shop is connected by an import, then show says unverified until a call to Shopify succeeds, then active', async () => {
    const shop = await importConnected(fake.accessToken);
    expect(await shownStatus(shop)).toBe('unverified');
    expect((await describePlatform({ db, keyring }, shop)).shopify?.verifiedAt).toBeNull();

    const { gateway } = createShopifyGateway({ db, keyring });
    await gateway.ordersChangedSince(db, shop.id, new Date());
    await expect.poll(() => shownStatus(shop)).toBe('active');
    expect((await describePlatform({ db, keyring }, shop)).shopify?.verifiedAt).toBeInstanceOf(Date);

    // The next test connects this store to another shop, and a store connects one shop.
    await db.query('DELETE FROM shopify_connections WHERE shop_id = $1', [shop.id]);
  });

  it('when an imported token is refused by Shopify, then show says unauthorized, never active', async () => {
    const shop = await importConnected('shpat_not_the_stores_token');
    expect(await shownStatus(shop)).toBe('unverified');
    const { gateway } = createShopifyGateway({ db, keyring });
    await expect(gateway.ordersChangedSince(db, shop.id, new Date())).rejects.toThrow(/HTTP 401/);
    await expect.poll(() => shownStatus(shop)).toBe('unauthorized');
  });
});
