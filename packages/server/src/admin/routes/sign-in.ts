import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkCredentials } from '../../services/admin-users.js';
import type { AdminContext } from '../admin-app.js';
import { sendPage } from '../render.js';
import { spendPasswordAttempt } from '../sign-in-budget.js';
import { clearSessionCookie, csrfTokenFor, requireStaff, setSessionCookie } from '../staff.js';

interface SignInBody {
  email?: string;
  password?: string;
}

const NOTICES: Record<string, string> = {
  ended: 'Your session ended. Sign in again.',
  out: 'You are signed out.',
};

function signInPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  data: { error?: string; email?: string; notice?: string },
) {
  return sendPage(reply, status, 'login', { title: 'Sign in', csrfToken: csrfTokenFor(request, reply), ...data });
}

/** /admin/login (the form of PRODUCT.md §17: `Email`, `Password`, `Sign in`) and /admin/logout. */
export function signInRoutes(ctx: AdminContext) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: Record<string, string> }>('/admin/login', (request, reply) => {
      if (request.staff) return reply.redirect('/admin/api-keys', 303);
      const notice = Object.keys(NOTICES).find((key) => key in request.query);
      return signInPage(request, reply, 200, { notice: notice && NOTICES[notice] });
    });

    app.post<{ Body: SignInBody }>('/admin/login', { preHandler: app.csrfProtection }, async (request, reply) => {
      const email = typeof request.body?.email === 'string' ? request.body.email : '';
      const password = typeof request.body?.password === 'string' ? request.body.password : '';
      if (!email.trim() || !password) {
        return signInPage(request, reply, 400, { email, error: 'Enter your email and your password.' });
      }
      const seconds = await spendPasswordAttempt(ctx, request, reply, email);
      if (seconds !== undefined) {
        return signInPage(request, reply, 429, {
          email,
          error: `Too many sign-in attempts. Wait ${seconds} seconds and try again.`,
        });
      }
      const user = await checkCredentials(ctx.db, email, password);
      if (!user) {
        return signInPage(request, reply, 401, { email, error: 'The email or the password is wrong.' });
      }
      // A new token at every sign-in: a token planted before sign-in never becomes a session.
      const { token } = await ctx.sessions.start(user.id);
      setSessionCookie(request, reply, token);
      return reply.redirect(user.mustChangePassword ? '/admin/password' : '/admin/api-keys', 303);
    });

    app.post(
      '/admin/logout',
      { preValidation: requireStaff, preHandler: app.csrfProtection },
      async (request, reply) => {
        await ctx.sessions.end(request.staff!.tokenSha256);
        clearSessionCookie(request, reply);
        return reply.redirect('/admin/login?out=1', 303);
      },
    );
  };
}
