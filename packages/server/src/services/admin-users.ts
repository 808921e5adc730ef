import { hashPassword, oneTimePassword, passwordProblem, verifyPassword } from '../domain/password.js';
import { AppError, errors } from '../errors.js';
import type { Db } from '../store/db.js';
import { deleteOtherAdminSessions } from '../store/repositories/admin-sessions.js';
import {
  type AdminUser,
  deleteAdminUser,
  findAdminUserByEmail,
  insertAdminUser,
  listAdminUsers,
  recordSignIn,
  setAdminPassword,
} from '../store/repositories/admin-users.js';
import { findShopByDomain } from '../store/repositories/shops.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Emails are compared lower-cased and trimmed: `Ana@Shop.example ` is `ana@shop.example`. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates a staff account of the shop with a one-time password, returned here only: it is
 * printed once and must be replaced at the first sign-in.
 */
export async function createAdminUser(
  db: Db,
  input: { shopDomain: string; email: string },
): Promise<{ email: string; shop: string; oneTimePassword: string }> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254) {
    throw errors.validation([{ path: '/email', message: 'must be an email address' }]);
  }
  const shop = await findShopByDomain(db, input.shopDomain);
  if (!shop) throw new AppError('not_found', `No shop '${input.shopDomain}'. Import it first (tare import FILE).`);
  const password = oneTimePassword();
  const inserted = await insertAdminUser(db, { shopId: shop.id, email, passwordHash: await hashPassword(password) });
  if (!inserted) throw new AppError('unprocessable', `An admin user '${email}' exists already.`);
  return { email, shop: shop.domain, oneTimePassword: password };
}

export async function listAdminUsersOf(db: Db, shopDomain?: string): Promise<AdminUser[]> {
  if (!shopDomain) return listAdminUsers(db);
  const shop = await findShopByDomain(db, shopDomain);
  if (!shop) throw new AppError('not_found', `No shop '${shopDomain}'.`);
  return listAdminUsers(db, shop.id);
}

/** Removes the account; its sessions end with it (the next request of each is signed out). */
export async function removeAdminUser(db: Db, email: string): Promise<void> {
  if (!(await deleteAdminUser(db, normalizeEmail(email)))) {
    throw new AppError('not_found', `No admin user '${normalizeEmail(email)}'.`);
  }
}

/** The account whose password this is, or undefined; an unknown email costs the same scrypt. */
export async function checkCredentials(db: Db, email: string, password: string): Promise<AdminUser | undefined> {
  const user = await findAdminUserByEmail(db, normalizeEmail(email));
  const matches = await verifyPassword(password, user?.passwordHash);
  if (!user || !matches) return undefined;
  await recordSignIn(db, user.id);
  return user;
}

/**
 * Replaces the password after checking the current one; every other session of the account
 * ends (whoever knew the old password is signed out). Issues name the form field.
 */
export async function changeAdminPassword(
  db: Db,
  input: { userId: string; email: string; current: string; next: string; confirmation: string; keepSession: Buffer },
): Promise<void> {
  const user = await findAdminUserByEmail(db, input.email);
  if (!user || user.id !== input.userId || !(await verifyPassword(input.current, user.passwordHash))) {
    throw errors.validation([{ path: '/current', message: 'is not your current password' }]);
  }
  const problem = passwordProblem(input.next);
  if (problem) throw errors.validation([{ path: '/next', message: problem }]);
  if (input.next === input.current) {
    throw errors.validation([{ path: '/next', message: 'must differ from the current password' }]);
  }
  if (input.next !== input.confirmation) {
    throw errors.validation([{ path: '/confirmation', message: 'does not match the new password' }]);
  }
  const hash = await hashPassword(input.next);
  await db.transaction(async (tx) => {
    await setAdminPassword(tx, user.id, hash);
    await deleteOtherAdminSessions(tx, user.id, input.keepSession);
  });
}
