import { randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ValidationIssue } from '@tare/contracts';
import { generateKey, hashSecret, parseKey } from '../domain/api-key.js';
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
import { HEARD_TRUST_MS, HEARD_WAIT_MS } from './heard-lease.js';

export interface Principal {
  keyId: string;
  shopId: string;
  /** The key's name when it was given one: the admin names the key in the ledger by it. */
  keyName: string | null;
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
  const issues = keyInputIssues(input);
  if (issues.length) throw errors.validation(issues);
  const name = input.name?.trim();
  const key = generateKey();
  // The notification drops the id from every instance's cache of unknown ids.
  await db.transaction(async (tx) => {
    await insertApiKey(tx, {
      id: key.keyId,
      shopId: shop.id,
      name: name ?? null,
      secretSha256: hashSecret(key.secret),
      expiresAt: input.expiresAt ?? null,
    });
    await tx.query('SELECT pg_notify($1, $2)', [API_KEYS_CHANGED, key.keyId]);
  });
  return { keyId: key.keyId, token: key.token, shop: shop.domain, expiresAt: input.expiresAt ?? null };
}

const NAME_MAX_LENGTH = 100;

/** What the CLI and the admin both refuse in a new key's name and expiry, by field. */
function keyInputIssues(input: { name?: string; expiresAt?: Date }): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const name = input.name?.trim();
  if (name !== undefined) {
    if (name === '') issues.push({ path: '/name', message: 'must not be empty' });
    else if ([...name].length > NAME_MAX_LENGTH) {
      issues.push({ path: '/name', message: `must be at most ${NAME_MAX_LENGTH} characters` });
    }
    // Control characters (NUL among them, which PostgreSQL cannot store) have no place in a name.
    // eslint-disable-next-line no-control-regex
    else if (/[\u0000-\u001f\u007f]/.test(name))
      issues.push({ path: '/name', message: 'must not contain control characters' });
  }
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    issues.push({ path: '/expiresAt', message: 'must be in the future' });
  }
  return issues;
}

export async function listKeys(db: Db, shopDomain?: string): Promise<ApiKeyRecord[]> {
  if (!shopDomain) return listApiKeys(db);
  const shop = await findShopByDomain(db, shopDomain);
  if (!shop) throw new AppError('not_found', `No shop '${shopDomain}'.`);
  return listApiKeys(db, shop.id);
}

/**
 * Revokes the key and tells every instance to forget it at commit; on PostgreSQL it returns only
 * once every instance refuses the key (HEARD_WAIT_MS after the commit). A key revoked before stays
 * revoked since then; `alreadyRevokedAt` says when. With `shopId`, only that shop's keys are found.
 */
export async function revokeKey(
  db: Db,
  keyId: string,
  scope: { shopId?: string } = {},
): Promise<{ alreadyRevokedAt: Date | null }> {
  const before = await db.transaction(async (tx) => {
    const found = await findApiKey(tx, keyId);
    // Scoped to a shop (the admin), another shop's key is one that does not exist.
    const key = scope.shopId === undefined || found?.shopId === scope.shopId ? found : undefined;
    if (key && !key.revokedAt) {
      await revokeApiKey(tx, keyId);
      await tx.query('SELECT pg_notify($1, $2)', [API_KEYS_CHANGED, keyId]);
    }
    return key;
  });
  if (!before) throw new AppError('not_found', `No API key '${keyId}'.`);
  // Other instances answer from their key cache only while they have heard every notification up
  // to HEARD_TRUST_MS ago (see createHeardLease): past this wait, each has heard this one. An
  // earlier revocation of the same key may still be waiting, so an "already revoked" one waits too.
  if (db.driver === 'postgres') await sleep(HEARD_WAIT_MS);
  return { alreadyRevokedAt: before.revokedAt };
}

/** What the hash of an unknown key id's secret is compared with: no secret hashes to it. */
const NO_KEY_SHA256 = randomBytes(32);
const CACHE_LIMIT = 10_000;
/**
 * How old a lookup in flight may be for another request to share its answer: a revocation
 * returns HEARD_WAIT_MS after its commit, so a lookup sent at most HEARD_WAIT_MS − HEARD_TRUST_MS
 * before a request that arrived after the revocation returned was sent after that commit.
 */
const JOIN_MS = HEARD_WAIT_MS - HEARD_TRUST_MS;

interface Entry {
  record: ApiKeyRecord;
  until: number;
  /** The presented secret that last matched the record's hash (ASCII, as every secret is). */
  verified?: Buffer;
  /** As long as `verified`: a warm request writes the secret it presents here to compare it. */
  scratch?: Buffer;
}

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * Verifies presented credentials. Key records are cached for `cacheTtlMs` and dropped as soon
 * as a NOTIFY on API_KEYS_CHANGED arrives; every failure is the same 401. With `heard` (several
 * instances on one PostgreSQL), the cache answers only while the instance has proof that it has
 * heard every notification until a moment ago (createHeardLease); otherwise it asks the store.
 *
 * Every failure costs the same whatever part of the key was wrong: one store lookup or cache
 * hit, one hash of the presented secret and one constant-time comparison. Without `heard`, ids
 * the store does not have are cached like known ones (same lifetime, same invalidation: creating
 * a key notifies too), and their secret is compared with a hash that no secret has. With `heard`,
 * only keys are cached, never their absence, so a key created on one instance works on every
 * other at once; every failure then asks the store (a cached key whose secret did not match is
 * read again), which the failure budget per address bounds.
 */
export function createAuthenticator(deps: {
  db: Db;
  cacheTtlMs: number;
  now?: () => number;
  /** SHA-256 of a presented secret; tests pass a counting one. */
  hashSecret?: (secret: string) => Buffer;
  /**
   * Several instances on one store: whether this one has heard every change until a moment ago
   * (createHeardLease); the cache answers only then. Not given on PGlite (one process).
   */
  heard?: { fresh(): boolean };
}) {
  const now = deps.now ?? Date.now;
  const hash = deps.hashSecret ?? hashSecret;
  const { heard } = deps;
  // A cached record remembers the secret that last matched its hash, so a warm request compares
  // in constant time without hashing again (SHA-256 was the largest cost of a cached request).
  const cache = new Map<string, Entry>();
  // Unknown ids → until when. A map of its own: a flood of random ids never evicts real keys.
  const unknownIds = new Map<string, number>();
  // Bumped by every `forget`: a lookup that was in flight across one does not cache its answer,
  // which may predate the change (a revocation, a creation).
  let generation = 0;

  function cached(keyId: string): Entry | undefined | 'ask' {
    if (heard && !heard.fresh()) return 'ask';
    const hit = cache.get(keyId);
    if (hit && hit.until > now()) return hit;
    const unknownUntil = unknownIds.get(keyId);
    return unknownUntil !== undefined && unknownUntil > now() ? undefined : 'ask';
  }

  // Lookups in flight by key id: requests that find no usable cache (a lapsed lease under load)
  // share one, if it was sent less than JOIN_MS ago and no change was heard since.
  const inFlight = new Map<string, { promise: Promise<Entry | undefined>; at: number; generation: number }>();

  function lookup(keyId: string): Promise<Entry | undefined> {
    const joined = inFlight.get(keyId);
    if (joined && joined.generation === generation && now() - joined.at <= JOIN_MS) return joined.promise;
    const flight = { promise: read(keyId), at: now(), generation };
    inFlight.set(keyId, flight);
    const done = () => {
      if (inFlight.get(keyId) === flight) inFlight.delete(keyId);
    };
    flight.promise.then(done, done);
    return flight.promise;
  }

  async function read(keyId: string): Promise<Entry | undefined> {
    const asked = generation;
    const record = await findApiKey(deps.db, keyId);
    const cacheable = deps.cacheTtlMs > 0 && asked === generation;
    if (!record) {
      if (cacheable && !heard) {
        if (unknownIds.size >= CACHE_LIMIT) unknownIds.clear();
        unknownIds.set(keyId, now() + deps.cacheTtlMs);
      }
      return undefined;
    }
    // A key's secret never changes: a secret verified against the same hash stays verified.
    const previous = cache.get(keyId);
    const verified = previous?.record.secretSha256.equals(record.secretSha256) ? previous.verified : undefined;
    const entry: Entry = {
      record,
      until: now() + deps.cacheTtlMs,
      verified,
      scratch: verified && Buffer.alloc(verified.length),
    };
    if (cacheable) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(keyId, entry);
    }
    return entry;
  }

  function principalOf(entry: { record: ApiKeyRecord }): Principal {
    const { record } = entry;
    if (record.revokedAt || (record.expiresAt && record.expiresAt.getTime() <= now())) throw errors.unauthorized();
    return { keyId: record.id, shopId: record.shopId, keyName: record.name };
  }

  return {
    /**
     * The hot path: answers from the cache without a promise when the key's record is cached
     * and this exact secret was verified before; undefined means "ask `authenticate`".
     */
    authenticateCached(presented: string): Principal | undefined {
      // Only the usual spelling, `apik_<keyId>_<secret>`, and without parseKey's pattern checks:
      // a secret equal to one verified before is well-formed. Anything else asks `authenticate`.
      if (presented.length <= 22 || !presented.startsWith('apik_') || presented[21] !== '_') return undefined;
      const hit = cache.get(presented.slice(5, 21));
      if (!hit?.verified || !hit.scratch || hit.until <= now() || (heard && !heard.fresh())) return undefined;
      // Written into the entry's scratch bytes, not a new Buffer. A non-ASCII character takes two
      // or more bytes and none of them is ASCII, so equal bytes mean the same characters.
      const secret = presented.slice(22);
      const { verified, scratch } = hit;
      if (secret.length !== verified.length || scratch.write(secret) !== verified.length) return undefined;
      if (!timingSafeEqual(scratch, verified)) return undefined;
      return principalOf(hit);
    },
    async authenticate(presented: string | undefined): Promise<Principal> {
      const parsed = presented === undefined ? undefined : parseKey(presented);
      if (!parsed) throw errors.unauthorized();
      const hit = cached(parsed.keyId);
      let entry = hit === 'ask' ? await lookup(parsed.keyId) : hit;
      const secret = Buffer.from(parsed.secret, 'utf8');
      if (entry?.verified?.length === secret.length && timingSafeEqual(entry.verified, secret))
        return principalOf(entry);
      // Hashed and compared for an unknown id too, so that failure costs what a wrong secret does.
      const digest = hash(parsed.secret);
      const matches = (e: Entry | undefined) => sameBytes(digest, e?.record.secretSha256 ?? NO_KEY_SHA256);
      // Failures ask the store when absences are not cached (see above): a cached key is read again.
      if (heard && hit !== 'ask' && entry && !matches(entry)) entry = await lookup(parsed.keyId);
      if (!entry || !matches(entry)) throw errors.unauthorized();
      entry.verified = secret;
      entry.scratch = Buffer.alloc(secret.length);
      return principalOf(entry);
    },
    forget(keyId?: string) {
      generation++;
      if (keyId) {
        cache.delete(keyId);
        unknownIds.delete(keyId);
      } else {
        cache.clear();
        unknownIds.clear();
      }
    },
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
