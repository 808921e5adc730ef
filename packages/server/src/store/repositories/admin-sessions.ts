import type { Queryable } from '../db.js';

export interface AdminSessionRow {
  userId: string;
  shopId: string;
  shopDomain: string;
  email: string;
  mustChangePassword: boolean;
  lastSeenAt: Date;
  expiresAt: Date;
}

interface Row {
  user_id: string;
  shop_id: string;
  domain: string;
  email: string;
  must_change_password: boolean;
  last_seen_at: Date;
  expires_at: Date;
}

export async function insertAdminSession(
  db: Queryable,
  session: { tokenSha256: Buffer; userId: string; expiresAt: Date },
): Promise<void> {
  await db.query('INSERT INTO admin_sessions (token_sha256, user_id, expires_at) VALUES ($1, $2, $3)', [
    session.tokenSha256,
    session.userId,
    session.expiresAt,
  ]);
}

export async function findAdminSession(db: Queryable, tokenSha256: Buffer): Promise<AdminSessionRow | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT a.user_id, u.shop_id, s.domain, u.email, u.must_change_password, a.last_seen_at, a.expires_at
       FROM admin_sessions a JOIN admin_users u ON u.id = a.user_id JOIN shops s ON s.id = u.shop_id
      WHERE a.token_sha256 = $1`,
    [tokenSha256],
  );
  const row = rows[0];
  return (
    row && {
      userId: row.user_id,
      shopId: row.shop_id,
      shopDomain: row.domain,
      email: row.email,
      mustChangePassword: row.must_change_password,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
    }
  );
}

export async function touchAdminSession(db: Queryable, tokenSha256: Buffer, at: Date): Promise<void> {
  await db.query('UPDATE admin_sessions SET last_seen_at = $2 WHERE token_sha256 = $1', [tokenSha256, at]);
}

export async function deleteAdminSession(db: Queryable, tokenSha256: Buffer): Promise<void> {
  await db.query('DELETE FROM admin_sessions WHERE token_sha256 = $1', [tokenSha256]);
}

/** Ends every session of the user except `keep` (after a password change). */
export async function deleteOtherAdminSessions(db: Queryable, userId: string, keep?: Buffer): Promise<void> {
  await db.query('DELETE FROM admin_sessions WHERE user_id = $1 AND ($2::bytea IS NULL OR token_sha256 <> $2)', [
    userId,
    keep ?? null,
  ]);
}

/** Claims a form id for the session; false when it was claimed before (a second post). */
export async function claimAdminForm(db: Queryable, tokenSha256: Buffer, formId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO admin_form_submissions (token_sha256, form_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [tokenSha256, formId],
  );
  return rowCount > 0;
}

export async function recordAdminFormOutcome(
  db: Queryable,
  tokenSha256: Buffer,
  formId: string,
  outcome: unknown,
): Promise<void> {
  await db.query('UPDATE admin_form_submissions SET outcome = $3 WHERE token_sha256 = $1 AND form_id = $2', [
    tokenSha256,
    formId,
    JSON.stringify(outcome),
  ]);
}

export async function releaseAdminForm(db: Queryable, tokenSha256: Buffer, formId: string): Promise<void> {
  await db.query('DELETE FROM admin_form_submissions WHERE token_sha256 = $1 AND form_id = $2', [tokenSha256, formId]);
}

export async function adminFormOutcome(db: Queryable, tokenSha256: Buffer, formId: string): Promise<unknown> {
  const { rows } = await db.query<{ outcome: unknown }>(
    'SELECT outcome FROM admin_form_submissions WHERE token_sha256 = $1 AND form_id = $2',
    [tokenSha256, formId],
  );
  return rows[0]?.outcome ?? null;
}

/** Deletes sessions past their absolute end or idle since `idleSince` (run at each sign-in). */
export async function deleteEndedAdminSessions(db: Queryable, at: Date, idleSince: Date): Promise<void> {
  await db.query('DELETE FROM admin_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [at, idleSince]);
}
