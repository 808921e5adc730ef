import {
  DEFAULT_SHOPIFY_API_VERSION,
  type ShopifyConnection,
  type ShopifyConnectionStatus,
  shopifyEndpoint,
} from '../../platform/shopify/connection.js';
import { type Keyring, SecretsKeyError } from '../../secrets/keyring.js';
import type { Queryable } from '../db.js';
import { releaseHeldEvents } from './platform-events.js';
import { wakeQueuedPushes } from './projection-outbox.js';

/** What connecting a shop says (the import file's `platform`, `tare platform connect`). */
export interface ShopifyConnectionInput {
  store: string;
  accessToken: string;
  clientSecret: string;
  apiVersion?: string;
  adminApiUrl?: string | null;
}

/** A connection as `tare platform show` reports it: the clear secrets, its state and its key. */
export interface ShopifyConnectionDetails extends ShopifyConnection {
  adminApiUrl: string | null;
  secretsKeyId: string;
  lastError: string | null;
  lastErrorAt: Date | null;
  connectedAt: Date;
  /** When a call to Shopify last succeeded with these credentials; null: never yet. */
  verifiedAt: Date | null;
}

interface ConnectionRow {
  shop_id: string;
  store: string;
  api_version: string;
  admin_api_url: string | null;
  access_token_sealed: string;
  client_secret_sealed: string;
  secrets_key_id: string;
  status: ShopifyConnectionStatus;
  last_error: string | null;
  last_error_at: Date | null;
  connected_at: Date;
  verified_at: Date | null;
}

const COLUMNS = `shop_id, store, api_version, admin_api_url, access_token_sealed, client_secret_sealed,
  secrets_key_id, status, last_error, last_error_at, connected_at, verified_at`;

type SecretField = 'access_token' | 'client_secret';

/** Binds a sealed value to its row and column: copied anywhere else, it does not open. */
const sealContext = (shopId: string, field: SecretField) => `shopify_connections/${shopId}/${field}`;

function open(keyring: Keyring, row: ConnectionRow, field: SecretField): string {
  const key = keyring.find(row.secrets_key_id);
  if (!key) {
    throw new SecretsKeyError(
      `the Shopify credentials of shop ${row.shop_id} are sealed with key ${row.secrets_key_id}, which is neither ` +
        'TARE_SECRETS_KEY nor one of TARE_SECRETS_PREVIOUS_KEYS (nor the data dir’s key file)',
    );
  }
  try {
    return key.open(
      field === 'access_token' ? row.access_token_sealed : row.client_secret_sealed,
      sealContext(row.shop_id, field),
    );
  } catch {
    throw new SecretsKeyError(
      `the Shopify ${field.replace('_', ' ')} of shop ${row.shop_id} does not open with key ${key.id}: it was altered or sealed for another row`,
    );
  }
}

function toDetails(row: ConnectionRow, keyring: Keyring): ShopifyConnectionDetails {
  return {
    shopId: row.shop_id,
    store: row.store,
    apiVersion: row.api_version,
    endpoint: shopifyEndpoint(row.store, row.api_version, row.admin_api_url),
    accessToken: open(keyring, row, 'access_token'),
    clientSecret: open(keyring, row, 'client_secret'),
    status: row.status,
    adminApiUrl: row.admin_api_url,
    secretsKeyId: row.secrets_key_id,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
    connectedAt: row.connected_at,
    verifiedAt: row.verified_at,
  };
}

/** The shop's connection with its secrets opened, or undefined when the shop is not on Shopify. */
export async function loadShopifyConnection(
  db: Queryable,
  shopId: string,
  keyring: Keyring,
): Promise<ShopifyConnectionDetails | undefined> {
  const { rows } = await db.query<ConnectionRow>(`SELECT ${COLUMNS} FROM shopify_connections WHERE shop_id = $1`, [
    shopId,
  ]);
  return rows[0] && toDetails(rows[0], keyring);
}

/** The connection of a store (`name.myshopify.com`, as a webhook's shop-domain header names it). */
export async function findShopifyConnectionByStore(
  db: Queryable,
  store: string,
  keyring: Keyring,
): Promise<ShopifyConnectionDetails | undefined> {
  const { rows } = await db.query<ConnectionRow>(`SELECT ${COLUMNS} FROM shopify_connections WHERE store = $1`, [
    store.trim().toLowerCase(),
  ]);
  return rows[0] && toDetails(rows[0], keyring);
}

/** Whether the shop's sync runs, without opening its secrets; undefined when it is not on Shopify. */
export async function shopifyConnectionStatus(
  db: Queryable,
  shopId: string,
): Promise<ShopifyConnectionStatus | undefined> {
  const { rows } = await db.query<{ status: ShopifyConnectionStatus }>(
    'SELECT status FROM shopify_connections WHERE shop_id = $1',
    [shopId],
  );
  return rows[0]?.status;
}

/**
 * Connects the shop to a Shopify store, or changes its connection. The same values again change
 * nothing (the secrets are compared opened: sealing is randomised), except that they retry a
 * connection stopped by a refused token; different ones are sealed with the current key and make
 * the connection active again, its last error cleared, the events it held released and its queued
 * pushes due at once (new credentials are a new attempt). Sets `shops.platform`. `verified`:
 * a call with these values just succeeded (`tare platform connect` checks them first); new values
 * saved without it are unverified until a call succeeds.
 */
export async function saveShopifyConnection(
  db: Queryable,
  shopId: string,
  input: ShopifyConnectionInput,
  keyring: Keyring,
  options: { verified?: boolean } = {},
): Promise<{ changed: boolean }> {
  const verified = options.verified ?? false;
  const wanted = {
    store: input.store.trim().toLowerCase(),
    apiVersion: input.apiVersion ?? DEFAULT_SHOPIFY_API_VERSION,
    adminApiUrl: input.adminApiUrl ?? null,
    accessToken: input.accessToken,
    clientSecret: input.clientSecret,
  };
  const platform = await db.query(
    `UPDATE shops SET platform = 'shopify', updated_at = now() WHERE id = $1 AND platform <> 'shopify'`,
    [shopId],
  );
  // A connection whose key is lost cannot be compared: new credentials replace it (the way back).
  const current = await loadShopifyConnection(db, shopId, keyring).catch((error: unknown) => {
    if (error instanceof SecretsKeyError) return undefined;
    throw error;
  });
  if (
    current &&
    current.store === wanted.store &&
    current.apiVersion === wanted.apiVersion &&
    current.adminApiUrl === wanted.adminApiUrl &&
    current.accessToken === wanted.accessToken &&
    current.clientSecret === wanted.clientSecret
  ) {
    // A refused token may be accepted again (a scope granted since): the same values retry it,
    // unverified unless they were just checked. An uninstall revokes the token for good: only new
    // credentials resume that sync.
    if (current.status !== 'unauthorized') {
      if (verified) await markConnectionVerified(db, shopId);
      return { changed: platform.rowCount > 0 };
    }
    // The time is chosen in the text, not by CASE WHEN $2 THEN now(): Citus refuses a function
    // that is not immutable inside a CASE of an UPDATE.
    await db.query(
      `UPDATE shopify_connections SET status = 'active', last_error = NULL, last_error_at = NULL,
         verified_at = ${verified ? 'now()' : 'NULL'}, updated_at = now()
       WHERE shop_id = $1`,
      [shopId],
    );
    await releaseHeldEvents(db, shopId);
    await wakeQueuedPushes(db, shopId);
    return { changed: true };
  }
  const key = keyring.current();
  await db.query(
    `INSERT INTO shopify_connections (shop_id, store, api_version, admin_api_url, access_token_sealed,
       client_secret_sealed, secrets_key_id, verified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::boolean THEN now() END)
     ON CONFLICT (shop_id) DO UPDATE SET store = EXCLUDED.store, api_version = EXCLUDED.api_version,
       admin_api_url = EXCLUDED.admin_api_url, access_token_sealed = EXCLUDED.access_token_sealed,
       client_secret_sealed = EXCLUDED.client_secret_sealed, secrets_key_id = EXCLUDED.secrets_key_id,
       status = 'active', last_error = NULL, last_error_at = NULL, verified_at = EXCLUDED.verified_at,
       updated_at = EXCLUDED.updated_at`,
    [
      shopId,
      wanted.store,
      wanted.apiVersion,
      wanted.adminApiUrl,
      key.seal(wanted.accessToken, sealContext(shopId, 'access_token')),
      key.seal(wanted.clientSecret, sealContext(shopId, 'client_secret')),
      key.id,
      verified,
    ],
  );
  await releaseHeldEvents(db, shopId);
  await wakeQueuedPushes(db, shopId);
  return { changed: true };
}

/** The shop that holds `store`, if another than `shopId` does (a store connects one shop). */
export async function shopHoldingStore(db: Queryable, store: string, shopId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ domain: string }>(
    `SELECT s.domain FROM shopify_connections c JOIN shops s ON s.id = c.shop_id
     WHERE c.store = $1 AND c.shop_id <> $2`,
    [store.trim().toLowerCase(), shopId],
  );
  return rows[0]?.domain;
}

/**
 * Records that a call with the connection's current credentials succeeded; writes nothing when
 * it was verified already or its sync is stopped (a call that raced a refusal verifies nothing).
 */
export async function markConnectionVerified(db: Queryable, shopId: string): Promise<void> {
  await db.query(
    `UPDATE shopify_connections SET verified_at = now(), updated_at = now()
     WHERE shop_id = $1 AND status = 'active' AND verified_at IS NULL`,
    [shopId],
  );
}

/** Stops the shop's sync (`app/uninstalled`, a revoked token), keeping its data; says why. */
export async function markConnectionFailed(
  db: Queryable,
  shopId: string,
  status: Exclude<ShopifyConnectionStatus, 'active'>,
  error: string,
): Promise<void> {
  await db.query(
    `UPDATE shopify_connections SET status = $2, last_error = $3, last_error_at = now(), updated_at = now()
     WHERE shop_id = $1`,
    [shopId, status, error.slice(0, 2000)],
  );
}

/** Records a failure that does not stop the sync (Shopify down, throttled for long). */
export async function recordConnectionError(db: Queryable, shopId: string, error: string): Promise<void> {
  await db.query(
    'UPDATE shopify_connections SET last_error = $2, last_error_at = now(), updated_at = now() WHERE shop_id = $1',
    [shopId, error.slice(0, 2000)],
  );
}

/** Clears the last error after a call that succeeded; writes nothing when there was none. */
export async function clearConnectionError(db: Queryable, shopId: string): Promise<void> {
  await db.query(
    `UPDATE shopify_connections SET last_error = NULL, last_error_at = NULL, updated_at = now()
     WHERE shop_id = $1 AND status = 'active' AND last_error IS NOT NULL`,
    [shopId],
  );
}

/** Removes the connection; the shop sells on the embedded platform again (its data is kept). */
export async function deleteShopifyConnection(db: Queryable, shopId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM shopify_connections WHERE shop_id = $1', [shopId]);
  await db.query(`UPDATE shops SET platform = 'local', updated_at = now() WHERE id = $1 AND platform <> 'local'`, [
    shopId,
  ]);
  return rowCount > 0;
}

/**
 * Seals again, with the current key, every connection sealed with another one. Rows are locked
 * while they are re-sealed, so a concurrent connect cannot be overwritten with older values.
 */
export async function resealConnections(db: Queryable, keyring: Keyring): Promise<{ resealed: number; keyId: string }> {
  const key = keyring.current();
  const { rows } = await db.query<ConnectionRow>(
    `SELECT ${COLUMNS} FROM shopify_connections WHERE secrets_key_id <> $1 ORDER BY shop_id FOR UPDATE`,
    [key.id],
  );
  for (const row of rows) {
    await db.query(
      `UPDATE shopify_connections SET access_token_sealed = $2, client_secret_sealed = $3, secrets_key_id = $4,
         updated_at = now()
       WHERE shop_id = $1`,
      [
        row.shop_id,
        key.seal(open(keyring, row, 'access_token'), sealContext(row.shop_id, 'access_token')),
        key.seal(open(keyring, row, 'client_secret'), sealContext(row.shop_id, 'client_secret')),
        key.id,
      ],
    );
  }
  return { resealed: rows.length, keyId: key.id };
}
