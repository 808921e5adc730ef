import type { Actor } from '../domain/actor.js';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import type { StaffSession } from '../services/admin-sessions.js';
import type { AdminContext } from './admin-app.js';
import { isHttps } from './render.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in staff member's live session; undefined when signed out. */
    staff?: StaffSession;
    /** True when the request carried a session cookie that had ended (idle or too old). */
    staffSessionEnded?: boolean;
  }
}

/** The signed-in staff member as the ledger and the order history name them. */
export function staffActor(staff: StaffSession): Extract<Actor, { type: 'staff' }> {
  return { type: 'staff', id: staff.userId, email: staff.email };
}

export const SESSION_COOKIE = 'tare_admin_session';
export const CSRF_COOKIE = 'tare_admin_csrf';
/** What CSRF tokens of the signed-out sign-in form are bound to. */
export const SIGNED_OUT = 'signed-out';

/** Reads the session cookie once per request (not for static assets, which need no session). */
export function resolveStaff(ctx: AdminContext): onRequestHookHandler {
  return async (request, reply) => {
    if (request.url.startsWith('/admin/assets/')) return;
    const lookup = await ctx.sessions.resolve(request.cookies[SESSION_COOKIE]);
    if (lookup.status === 'active') request.staff = lookup.session;
    if (lookup.status === 'expired') {
      request.staffSessionEnded = true;
      clearSessionCookie(request, reply);
    }
  };
}

/**
 * Pages for signed-in staff: anyone else is sent to the sign-in page (303, so a POST becomes a
 * GET there), and staff still holding a one-time password to the password page.
 */
export const requireStaff: preValidationHookHandler = async (request, reply) => {
  if (!request.staff) {
    return reply.redirect(request.staffSessionEnded ? '/admin/login?ended=1' : '/admin/login', 303);
  }
  if (request.staff.mustChangePassword && !request.url.startsWith('/admin/password')) {
    return reply.redirect('/admin/password', 303);
  }
};

function cookieOptions(request: FastifyRequest) {
  // Lax: a link to the admin from elsewhere (an email) opens it signed in; state changes also
  // need the CSRF token, which another site cannot read.
  return { path: '/admin', httpOnly: true, sameSite: 'lax' as const, secure: isHttps(request) };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}

/** The CSRF token for this page's forms (its secret cookie is set, Secure over HTTPS, when new). */
export function csrfTokenFor(request: FastifyRequest, reply: FastifyReply): string {
  return reply.generateCsrf({
    userInfo: request.staff?.tokenSha256.toString('hex') ?? SIGNED_OUT,
    secure: isHttps(request),
  } as never);
}
