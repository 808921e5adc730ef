import type { Queryable } from '../store/db.js';
import { listApiKeys } from '../store/repositories/api-keys.js';
import { deleteShop } from '../store/repositories/shops.js';
import { API_KEYS_CHANGED, CATALOG_CHANGED } from './change-channels.js';

/**
 * Deletes the shop and every row it holds (products, ledger, keys, staff, events) in the caller's
 * transaction, and announces it at commit on both channels, so that every instance drops the
 * shop's keys (its next request is 401) and its cached products, variants, settings and shop
 * record. On PostgreSQL an instance answers from its key cache only while it has heard every
 * notification until a moment ago (createHeardLease), so by HEARD_WAIT_MS after the commit every
 * instance refuses the keys; PGlite has one process, which hears it before its next request.
 */
export async function deleteShopEverywhere(tx: Queryable, shopId: string): Promise<void> {
  const keyIds = (await listApiKeys(tx, shopId)).map((key) => key.id);
  await tx.query('SELECT pg_notify($1, id) FROM unnest($2::text[]) AS id', [API_KEYS_CHANGED, keyIds]);
  await tx.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED, shopId]);
  await deleteShop(tx, shopId);
}
