import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors.js';
import { createApiKey, listKeys, revokeKey } from '../../services/api-keys.js';
import {
  adminFormOutcome,
  claimAdminForm,
  recordAdminFormOutcome,
  releaseAdminForm,
} from '../../store/repositories/admin-sessions.js';
import type { AdminContext } from '../admin-app.js';
import { field, formIssues } from '../forms.js';
import { isHttps, sendPage } from '../render.js';
import { csrfTokenFor, requireStaff } from '../staff.js';

const LABELS = { name: 'Name', expiresAt: 'Expires on' };
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface PageState {
  status?: number;
  created?: { name: string; token: string };
  notice?: string;
  values?: { name?: string; expiresAt?: string };
  summary?: string;
  issues?: Record<string, string>;
}

/** The end of the given UTC day (`2026-04-01` → 2026-04-02T00:00Z); undefined for anything else. */
function endOfDay(text: string): Date | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (day.toISOString().slice(0, 10) !== text) return undefined; // 2026-02-30
  return new Date(day.getTime() + 86_400_000);
}

/** /admin/api-keys: PRODUCT.md §4's keys, made, listed and revoked through the CLI's services. */
export function apiKeyRoutes(ctx: AdminContext) {
  async function keysPage(request: FastifyRequest, reply: FastifyReply, state: PageState = {}) {
    const staff = request.staff!;
    const now = Date.now();
    const keys = (await listKeys(ctx.db, staff.shopDomain)).map((key) => ({
      ...key,
      status: key.revokedAt ? 'revoked' : key.expiresAt && key.expiresAt.getTime() <= now ? 'expired' : 'active',
    }));
    return sendPage(reply, state.status ?? 200, 'api-keys', {
      title: 'API keys',
      current: 'api-keys',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      formId: ctx.formIds.issue(['api-keys', 'create']),
      keys: keys.reverse(), // newest first
      values: state.values ?? {},
      issues: state.issues ?? {},
      summary: state.summary,
      created: state.created,
      notice: state.notice,
      apiBase: `${isHttps(request) ? 'https' : 'http'}://${request.host}`,
    });
  }

  return async (app: FastifyInstance) => {
    app.addHook('preValidation', requireStaff);

    app.get<{ Querystring: Record<string, string> }>('/admin/api-keys', (request, reply) => {
      const { revoked, password } = request.query;
      const notice =
        password === 'changed'
          ? 'Your password is saved.'
          : revoked
            ? `Key ${revoked} is revoked: requests with it are refused from now on.`
            : undefined;
      return keysPage(request, reply, { notice });
    });

    app.post('/admin/api-keys', { preHandler: app.csrfProtection }, async (request, reply) => {
      const staff = request.staff!;
      const values = { name: field(request.body, 'name'), expiresAt: field(request.body, 'expiresAt') };
      const formId = ctx.formIds.posted(request.body, ['api-keys', 'create']);
      // The first post of this form claims it; a second one (a double click) creates nothing.
      if (!(await claimAdminForm(ctx.db, staff.tokenSha256, formId))) {
        const first = (await adminFormOutcome(ctx.db, staff.tokenSha256, formId)) as { keyId?: string } | null;
        return keysPage(request, reply, {
          status: 409,
          notice: first?.keyId
            ? `This form was sent twice; only the first created a key (${first.keyId}). Its secret was shown once, on the first answer: if you did not copy it, revoke that key and create another.`
            : 'This form was sent twice; the first is still being processed. Reload the page in a moment.',
        });
      }
      const expiresAt = values.expiresAt === '' ? undefined : endOfDay(values.expiresAt);
      try {
        if (values.expiresAt !== '' && !expiresAt) {
          throw errors.validation([{ path: '/expiresAt', message: 'must be a date (YYYY-MM-DD)' }]);
        }
        const key = await createApiKey(ctx.db, { shopDomain: staff.shopDomain, name: values.name, expiresAt });
        await recordAdminFormOutcome(ctx.db, staff.tokenSha256, formId, { keyId: key.keyId });
        return keysPage(request, reply, { status: 201, created: { name: values.name.trim(), token: key.token } });
      } catch (error) {
        // Nothing was created: the same form may be corrected and sent again.
        await releaseAdminForm(ctx.db, staff.tokenSha256, formId);
        const shown = formIssues(error, LABELS);
        if (!shown) throw error;
        return keysPage(request, reply, { status: 400, values, ...shown });
      }
    });

    app.post<{ Params: { keyId: string } }>(
      '/admin/api-keys/:keyId/revoke',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const { keyId } = request.params;
        // Another shop's key is not found (404), exactly like a key that does not exist.
        await revokeKey(ctx.db, keyId, { shopId: request.staff!.shopId });
        // This instance drops it now; the NOTIFY sent at commit tells every other one.
        ctx.authenticator.forget(keyId);
        return reply.redirect(`/admin/api-keys?revoked=${encodeURIComponent(keyId)}`, 303);
      },
    );
  };
}
