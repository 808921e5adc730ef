/**
 * Connecting a shop to Shopify: the connection is stored with its secrets sealed (never in clear
 * in the database), opened with the key that sealed them, re-sealed by a key rotation, and
 * saving the same values again changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createKeyring, SecretsKeyError } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import type { Db } from '../../src/store/db.js';
import {
  clearConnectionError,
  deleteShopifyConnection,
  findShopifyConnectionByStore,
  loadShopifyConnection,
  markConnectionFailed,
  recordConnectionError,
  resealConnections,
  saveShopifyConnection,
} from '../../src/store/repositories/shopify-connections.js';
import { findShopById } from '../../src/store/repositories/shops.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';

const TOKEN = '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';
const SECRET = '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';
const input = (store: string) => ({ store, accessToken: TOKEN, clientSecret: SECRET });

async function sealedRow(db: Db, shopId: string) {
  const { rows } = await db.query<Record<string, string>>('SELECT * FROM shopify_connections WHERE shop_id = $1', [
    shopId,
  ]);
  return rows[0]!;
}

describe.each(testDrivers({ citus: true }))('Shopify connections on $name', (driver) => {
  let db: Db;
  beforeAll(async () => {
    db = await driver.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it('when a shop is connected, then its secrets are sealed in the database and open again in memory', async () => {
    const { shopId } = await seedShop(db);
    const key = SecretKey.generate();
    const keyring = createKeyring({ current: key });
    expect(await saveShopifyConnection(db, shopId, input('Fresh-Produce.myshopify.com'), keyring)).toEqual({
      changed: true,
    });

    const row = await sealedRow(db, shopId);
    const everything = JSON.stringify(row);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(SECRET);
    expect(row.secrets_key_id).toBe(key.id);
    expect(row.store).toBe('fresh-produce.myshopify.com');
    expect((await findShopById(db, shopId))?.platform).toBe('shopify');

    const connection = await loadShopifyConnection(db, shopId, keyring);
    expect(connection).toMatchObject({
      shopId,
      store: 'fresh-produce.myshopify.com',
      apiVersion: '2026-04',
      endpoint: 'https://fresh-produce.myshopify.com/admin/api/2026-04/graphql.json',
      accessToken: TOKEN,
      clientSecret: SECRET,
      status: 'active',
    });
    expect((await findShopifyConnectionByStore(db, 'FRESH-PRODUCE.myshopify.com', keyring))?.shopId).toBe(shopId);
  });

  it('when the same values are saved again, then nothing changes; other values are a new active connection', async () => {
    const { shopId } = await seedShop(db);
    const keyring = createKeyring({ current: SecretKey.generate() });
    await saveShopifyConnection(db, shopId, input(`again-${shopId}.myshopify.com`), keyring);
    const before = await sealedRow(db, shopId);
    expect(await saveShopifyConnection(db, shopId, input(`again-${shopId}.myshopify.com`), keyring)).toEqual({
      changed: false,
    });
    expect(await sealedRow(db, shopId)).toEqual(before);

    // The same values retry a refused token (a scope may have been granted since)…
    await markConnectionFailed(db, shopId, 'unauthorized', 'Shopify answered 403');
    expect(await saveShopifyConnection(db, shopId, input(`again-${shopId}.myshopify.com`), keyring)).toEqual({
      changed: true,
    });
    expect(await loadShopifyConnection(db, shopId, keyring)).toMatchObject({ status: 'active', lastError: null });
    // …but not an uninstalled app's, whose token is revoked for good.
    await markConnectionFailed(db, shopId, 'uninstalled', 'the app was uninstalled');
    expect(await saveShopifyConnection(db, shopId, input(`again-${shopId}.myshopify.com`), keyring)).toEqual({
      changed: false,
    });
    expect((await loadShopifyConnection(db, shopId, keyring))?.status).toBe('uninstalled');

    const proxied = { ...input(`again-${shopId}.myshopify.com`), adminApiUrl: 'http://127.0.0.1:9/graphql.json' };
    expect(await saveShopifyConnection(db, shopId, proxied, keyring)).toEqual({ changed: true });
    expect(await loadShopifyConnection(db, shopId, keyring)).toMatchObject({
      status: 'active',
      lastError: null,
      endpoint: 'http://127.0.0.1:9/graphql.json',
    });
  });

  it('when a sealed value is copied to another shop or column, then it does not open', async () => {
    const keyring = createKeyring({ current: SecretKey.generate() });
    const a = await seedShop(db);
    const b = await seedShop(db);
    await saveShopifyConnection(db, a.shopId, input(`a-${a.shopId}.myshopify.com`), keyring);
    await saveShopifyConnection(
      db,
      b.shopId,
      { ...input(`b-${b.shopId}.myshopify.com`), accessToken: 'other' },
      keyring,
    );
    await db.query(
      `UPDATE shopify_connections SET access_token_sealed = (SELECT access_token_sealed FROM shopify_connections
       WHERE shop_id = $1) WHERE shop_id = $2`,
      [a.shopId, b.shopId],
    );
    await expect(loadShopifyConnection(db, b.shopId, keyring)).rejects.toThrow(/altered or sealed for another row/);
  });

  it('when the key is rotated, then the old key opens until re-sealing, and re-sealing moves every row to the new key', async () => {
    // A database of its own: re-sealing refuses rows sealed with keys it does not hold (the other tests' keys).
    const db = await driver.create();
    onTestFinished(() => db.close());
    const oldKey = SecretKey.generate();
    const newKey = SecretKey.generate();
    const { shopId } = await seedShop(db);
    await saveShopifyConnection(
      db,
      shopId,
      input(`rotate-${shopId}.myshopify.com`),
      createKeyring({ current: oldKey }),
    );
    const sealedBefore = await sealedRow(db, shopId);

    // The new key is current, the old one previous: what the old one sealed still opens.
    const rotating = createKeyring({ current: newKey, previous: [oldKey] });
    expect((await loadShopifyConnection(db, shopId, rotating))?.accessToken).toBe(TOKEN);
    // Without the old key, the error says which key is missing and where keys come from.
    const onlyNew = createKeyring({ current: newKey });
    await expect(loadShopifyConnection(db, shopId, onlyNew)).rejects.toThrow(SecretsKeyError);
    await expect(loadShopifyConnection(db, shopId, onlyNew)).rejects.toThrow(oldKey.id);

    const { resealed, keyId } = await resealConnections(db, rotating);
    expect(resealed).toBeGreaterThanOrEqual(1);
    expect(keyId).toBe(newKey.id);
    const sealedAfter = await sealedRow(db, shopId);
    expect(sealedAfter.secrets_key_id).toBe(newKey.id);
    expect(sealedAfter.access_token_sealed).not.toBe(sealedBefore.access_token_sealed);
    expect((await loadShopifyConnection(db, shopId, onlyNew))?.clientSecret).toBe(SECRET);
    // Nothing left on the old key: a second run re-seals nothing.
    expect((await resealConnections(db, rotating)).resealed).toBe(0);
  });

  it('when the key that sealed a connection is lost, then connecting again with new credentials replaces it', async () => {
    const { shopId } = await seedShop(db);
    await saveShopifyConnection(
      db,
      shopId,
      input(`lost-${shopId}.myshopify.com`),
      createKeyring({ current: SecretKey.generate() }),
    );
    const fresh = createKeyring({ current: SecretKey.generate() });
    expect(await saveShopifyConnection(db, shopId, input(`lost-${shopId}.myshopify.com`), fresh)).toEqual({
      changed: true,
    });
    expect((await loadShopifyConnection(db, shopId, fresh))?.accessToken).toBe(TOKEN);
  });

  it('when errors are recorded and cleared, then status and last error follow; disconnecting makes the shop local', async () => {
    const keyring = createKeyring({ current: SecretKey.generate() });
    const { shopId } = await seedShop(db);
    await saveShopifyConnection(db, shopId, input(`errors-${shopId}.myshopify.com`), keyring);
    await recordConnectionError(db, shopId, 'Shopify answered 503');
    expect(await loadShopifyConnection(db, shopId, keyring)).toMatchObject({
      status: 'active',
      lastError: 'Shopify answered 503',
      lastErrorAt: expect.any(Date),
    });
    await clearConnectionError(db, shopId);
    expect(await loadShopifyConnection(db, shopId, keyring)).toMatchObject({ lastError: null, lastErrorAt: null });
    await markConnectionFailed(db, shopId, 'uninstalled', 'the app was uninstalled');
    await clearConnectionError(db, shopId); // a stopped sync keeps its reason
    expect(await loadShopifyConnection(db, shopId, keyring)).toMatchObject({
      status: 'uninstalled',
      lastError: 'the app was uninstalled',
    });

    expect(await deleteShopifyConnection(db, shopId)).toBe(true);
    expect(await loadShopifyConnection(db, shopId, keyring)).toBeUndefined();
    expect((await findShopById(db, shopId))?.platform).toBe('local');
  });
});
