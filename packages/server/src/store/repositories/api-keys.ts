import type { Queryable } from '../db.js';

export interface ApiKeyRecord {
  id: string;
  shopId: string;
  shopDomain: string;
  name: string | null;
  secretSha256: Buffer;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

interface ApiKeyRow {
  id: string;
  shop_id: string;
  domain: string;
  name: string | null;
  secret_sha256: Uint8Array;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const SELECT = `SELECT k.id, k.shop_id, s.domain, k.name, k.secret_sha256, k.created_at, k.expires_at,
  k.revoked_at, k.last_used_at FROM api_keys k JOIN shops s ON s.id = k.shop_id`;

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    shopId: row.shop_id,
    shopDomain: row.domain,
    name: row.name,
    secretSha256: Buffer.from(row.secret_sha256),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function insertApiKey(
  db: Queryable,
  key: { id: string; shopId: string; name: string | null; secretSha256: Buffer; expiresAt: Date | null },
): Promise<void> {
  await db.query('INSERT INTO api_keys (id, shop_id, name, secret_sha256, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    key.id,
    key.shopId,
    key.name,
    key.secretSha256,
    key.expiresAt,
  ]);
}

export async function findApiKey(db: Queryable, id: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRow>(`${SELECT} WHERE k.id = $1`, [id]);
  return rows[0] && toRecord(rows[0]);
}

export async function listApiKeys(db: Queryable, shopId?: string): Promise<ApiKeyRecord[]> {
  const { rows } = shopId
    ? await db.query<ApiKeyRow>(`${SELECT} WHERE k.shop_id = $1 ORDER BY k.created_at, k.id`, [shopId])
    : await db.query<ApiKeyRow>(`${SELECT} ORDER BY s.domain, k.created_at, k.id`);
  return rows.map(toRecord);
}

/** Marks the key revoked; false when there is no such key. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Queryable, id: string): Promise<boolean> {
  // Set only where unset, rather than coalesce(revoked_at, now()): Citus refuses now() in a
  // CASE or COALESCE of an UPDATE. A key revoked before is then found by a read.
  const { rowCount } = await db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [
    id,
  ]);
  if (rowCount > 0) return true;
  const { rows } = await db.query('SELECT 1 FROM api_keys WHERE id = $1', [id]);
  return rows.length > 0;
}

export async function touchApiKeys(db: Queryable, ids: string[], at: Date): Promise<void> {
  await db.query(
    `UPDATE api_keys SET last_used_at = $2
     WHERE id = ANY($1::text[]) AND (last_used_at IS NULL OR last_used_at < $2)`,
    [ids, at],
  );
}
