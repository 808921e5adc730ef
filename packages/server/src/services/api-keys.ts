import { timingSafeEqual } from 'node:crypto';
import { generateKey, hashSecret, parseKey, secretMatches } from '../domain/api-key.js';
import { AppError, errors } from '../errors.js';
import type { Db } from '../store/db.js';
import {
  type ApiKeyRecord,
  findApiKey,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
} from '../store/repositories/api-keys.js';
import { findShopByDomain } from '../store/repositories/shops.js';
import { API_KEYS_CHANGED } from './change-channels.js';

export interface Principal {
  keyId: string;
  shopId: string;
}

export interface CreatedKey {
  keyId: string;
  token: string;
  shop: string;
  expiresAt: Date | null;
}

/** Creates a key for the shop; the full token exists only in the return value. */
export async function createApiKey(
  db: Db,
  input: { shopDomain: string; name?: string; expiresAt?: Date },
): Promise<CreatedKey> {
  const shop = await findShopByDomain(db, input.shopDomain);
  if (!shop) throw new AppError('not_found', `No shop '${input.shopDomain}'. Import it first (tare import FILE).`);
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw errors.badRequest('The expiry must be in the future.');
  }
  const key = generateKey();
  await insertApiKey(db, {
    id: key.keyId,
    shopId: shop.id,
    name: input.name ?? null,
    secretSha256: hashSecret(key.secret),
    expiresAt: input.expiresAt ?? null,
  });
  return { keyId: key.keyId, token: key.token, shop: shop.domain, expiresAt: input.expiresAt ?? null };
}

export async function listKeys(db: Db, shopDomain?: string): Promise<ApiKeyRecord[]> {
  if (!shopDomain) return listApiKeys(db);
  const shop = await findShopByDomain(db, shopDomain);
  if (!shop) throw new AppError('not_found', `No shop '${shopDomain}'.`);
  return listApiKeys(db, shop.id);
}

/** Revokes the key and tells every instance to forget it at commit. */
export async function revokeKey(db: Db, keyId: string): Promise<void> {
  const found = await db.transaction(async (tx) => {
    const ok = await revokeApiKey(tx, keyId);
    if (ok) await tx.query('SELECT pg_notify($1, $2)', [API_KEYS_CHANGED, keyId]);
    return ok;
  });
  if (!found) throw new AppError('not_found', `No API key '${keyId}'.`);
}

/**
 * Verifies presented credentials. Key records are cached for `cacheTtlMs` and dropped as soon
 * as a NOTIFY on API_KEYS_CHANGED arrives; every failure is the same 401.
 */
export function createAuthenticator(deps: { db: Db; cacheTtlMs: number; now?: () => number }) {
  const now = deps.now ?? Date.now;
  // A cached record remembers the secret that last matched its hash, so a warm request compares
  // in constant time without hashing again (SHA-256 was the largest cost of a cached request).
  const cache = new Map<string, { record: ApiKeyRecord; until: number; verified?: Buffer }>();

  async function lookup(keyId: string) {
    const hit = cache.get(keyId);
    if (hit && hit.until > now()) return hit;
    const record = await findApiKey(deps.db, keyId);
    if (!record) return undefined;
    const entry = { record, until: now() + deps.cacheTtlMs };
    if (deps.cacheTtlMs > 0) {
      if (cache.size > 10_000) cache.clear();
      cache.set(keyId, entry);
    }
    return entry;
  }

  function secretIsValid(entry: { record: ApiKeyRecord; verified?: Buffer }, secret: string): boolean {
    const presented = Buffer.from(secret, 'utf8');
    if (entry.verified?.length === presented.length && timingSafeEqual(entry.verified, presented)) return true;
    if (!secretMatches(secret, entry.record.secretSha256)) return false;
    entry.verified = presented;
    return true;
  }

  function principalOf(entry: { record: ApiKeyRecord }): Principal {
    const { record } = entry;
    if (record.revokedAt || (record.expiresAt && record.expiresAt.getTime() <= now())) throw errors.unauthorized();
    return { keyId: record.id, shopId: record.shopId };
  }

  return {
    /**
     * The hot path: answers from the cache without a promise when the key's record is cached
     * and this exact secret was verified before; undefined means "ask `authenticate`".
     */
    authenticateCached(presented: string): Principal | undefined {
      const parsed = parseKey(presented);
      const hit = parsed && cache.get(parsed.keyId);
      if (!parsed || !hit || hit.until <= now() || !hit.verified) return undefined;
      const secret = Buffer.from(parsed.secret, 'utf8');
      if (secret.length !== hit.verified.length || !timingSafeEqual(secret, hit.verified)) return undefined;
      return principalOf(hit);
    },
    async authenticate(presented: string | undefined): Promise<Principal> {
      const parsed = presented === undefined ? undefined : parseKey(presented);
      if (!parsed) throw errors.unauthorized();
      const entry = await lookup(parsed.keyId);
      if (!entry || !secretIsValid(entry, parsed.secret)) throw errors.unauthorized();
      return principalOf(entry);
    },
    forget(keyId?: string) {
      if (keyId) cache.delete(keyId);
      else cache.clear();
    },
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
