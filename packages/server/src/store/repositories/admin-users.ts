import type { Queryable } from '../db.js';

export interface AdminUser {
  id: string;
  shopId: string;
  shopDomain: string;
  email: string;
  passwordHash: string;
  mustChangePassword: boolean;
  createdAt: Date;
  lastSignInAt: Date | null;
}

interface AdminUserRow {
  id: string;
  shop_id: string;
  domain: string;
  email: string;
  password_hash: string;
  must_change_password: boolean;
  created_at: Date;
  last_sign_in_at: Date | null;
}

const SELECT = `SELECT u.id, u.shop_id, s.domain, u.email, u.password_hash, u.must_change_password, u.created_at,
  u.last_sign_in_at FROM admin_users u JOIN shops s ON s.id = u.shop_id`;

function toUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    shopId: row.shop_id,
    shopDomain: row.domain,
    email: row.email,
    passwordHash: row.password_hash,
    mustChangePassword: row.must_change_password,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

/** Inserts the user; false when the email is taken (by this shop or another). */
export async function insertAdminUser(
  db: Queryable,
  user: { shopId: string; email: string; passwordHash: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO admin_users (shop_id, email, password_hash) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING`,
    [user.shopId, user.email, user.passwordHash],
  );
  return rowCount > 0;
}

export async function findAdminUserByEmail(db: Queryable, email: string): Promise<AdminUser | undefined> {
  const { rows } = await db.query<AdminUserRow>(`${SELECT} WHERE u.email = $1`, [email]);
  return rows[0] && toUser(rows[0]);
}

export async function listAdminUsers(db: Queryable, shopId?: string): Promise<AdminUser[]> {
  const { rows } = shopId
    ? await db.query<AdminUserRow>(`${SELECT} WHERE u.shop_id = $1 ORDER BY u.email`, [shopId])
    : await db.query<AdminUserRow>(`${SELECT} ORDER BY s.domain, u.email`);
  return rows.map(toUser);
}

/** Deletes the user (and, by cascade, every session of theirs); false when there was none. */
export async function deleteAdminUser(db: Queryable, email: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM admin_users WHERE email = $1', [email]);
  return rowCount > 0;
}

export async function setAdminPassword(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE admin_users SET password_hash = $2, must_change_password = false WHERE id = $1', [
    userId,
    passwordHash,
  ]);
}

export async function recordSignIn(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE admin_users SET last_sign_in_at = now() WHERE id = $1', [userId]);
}
