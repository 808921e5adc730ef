import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../store/db.js';
import {
  type AdminSessionRow,
  deleteAdminSession,
  deleteEndedAdminSessions,
  findAdminSession,
  insertAdminSession,
  touchAdminSession,
} from '../store/repositories/admin-sessions.js';

export interface SessionLifetimes {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in whatever its use. */
  absoluteMs: number;
}

export const DEFAULT_SESSION_LIFETIMES: SessionLifetimes = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };

/** Last use is written at most once a minute per session: a page's assets do not each write. */
const TOUCH_EVERY_MS = 60_000;

export interface StaffSession extends AdminSessionRow {
  /** SHA-256 of the cookie's token: the session's key in the store. */
  tokenSha256: Buffer;
}

export type SessionLookup = { status: 'active'; session: StaffSession } | { status: 'expired' } | { status: 'none' };

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** Staff sessions: a random 256-bit token in the cookie, its hash in the store. */
export function createAdminSessions(deps: { db: Db; lifetimes?: SessionLifetimes; now?: () => number }) {
  const lifetimes = deps.lifetimes ?? DEFAULT_SESSION_LIFETIMES;
  const now = deps.now ?? Date.now;
  return {
    lifetimes,
    /** Starts a session for the user; the token is for the cookie and is not kept. */
    async start(userId: string): Promise<{ token: string; tokenSha256: Buffer }> {
      const token = randomBytes(32).toString('base64url');
      const tokenSha256 = digest(token);
      // Sessions nobody came back to are swept here rather than by a timer of their own.
      await deleteEndedAdminSessions(deps.db, new Date(now()), new Date(now() - lifetimes.idleMs));
      await insertAdminSession(deps.db, { tokenSha256, userId, expiresAt: new Date(now() + lifetimes.absoluteMs) });
      return { token, tokenSha256 };
    },
    /** The cookie's session if it is still alive; an ended one is deleted and reported `expired`. */
    async resolve(token: string | undefined): Promise<SessionLookup> {
      if (!token) return { status: 'none' };
      const tokenSha256 = digest(token);
      const row = await findAdminSession(deps.db, tokenSha256);
      if (!row) return { status: 'none' };
      const at = now();
      if (row.expiresAt.getTime() <= at || row.lastSeenAt.getTime() + lifetimes.idleMs <= at) {
        await deleteAdminSession(deps.db, tokenSha256);
        return { status: 'expired' };
      }
      if (at - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await touchAdminSession(deps.db, tokenSha256, new Date(at));
      return { status: 'active', session: { ...row, tokenSha256 } };
    },
    async end(tokenSha256: Buffer): Promise<void> {
      await deleteAdminSession(deps.db, tokenSha256);
    },
  };
}
export type AdminSessions = ReturnType<typeof createAdminSessions>;
