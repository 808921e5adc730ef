import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { changeAdminPassword } from '../../services/admin-users.js';
import type { AdminContext } from '../admin-app.js';
import { field, formIssues } from '../forms.js';
import { sendPage } from '../render.js';
import { spendPasswordAttempt } from '../sign-in-budget.js';
import { csrfTokenFor, requireStaff } from '../staff.js';

function passwordPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  errors: { summary?: string; issues: Record<string, string> } = { issues: {} },
) {
  return sendPage(reply, status, 'password', {
    title: 'Choose your password',
    staff: request.staff,
    csrfToken: csrfTokenFor(request, reply),
    ...errors,
  });
}

const LABELS = { current: 'Current password', next: 'New password', confirmation: 'New password again' };

/** /admin/password: replaces the one-time password (required before anything else) or a chosen one. */
export function passwordRoutes(ctx: AdminContext) {
  return async (app: FastifyInstance) => {
    app.addHook('preValidation', requireStaff);
    app.get('/admin/password', (request, reply) => passwordPage(request, reply, 200));
    app.post('/admin/password', { preHandler: app.csrfProtection }, async (request, reply) => {
      const staff = request.staff!;
      // Whoever holds a session (a borrowed laptop) must not guess the current password freely.
      const seconds = await spendPasswordAttempt(ctx, request, reply, staff.email);
      if (seconds !== undefined) {
        return passwordPage(request, reply, 429, {
          summary: `Too many password attempts. Wait ${seconds} seconds and try again.`,
          issues: {},
        });
      }
      try {
        await changeAdminPassword(ctx.db, {
          userId: staff.userId,
          email: staff.email,
          current: field(request.body, 'current'),
          next: field(request.body, 'next'),
          confirmation: field(request.body, 'confirmation'),
          keepSession: staff.tokenSha256,
        });
      } catch (error) {
        const shown = formIssues(error, LABELS);
        if (!shown) throw error;
        return passwordPage(request, reply, 400, shown);
      }
      return reply.redirect('/admin/api-keys?password=changed', 303);
    });
  };
}
