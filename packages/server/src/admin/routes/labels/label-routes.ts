import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { previewLabel } from '../../../domain/label-preview.js';
import { normalizeLocale } from '../../../domain/labels.js';
import { escapePointer } from '../../../domain/validation.js';
import { AppError } from '../../../errors.js';
import { labelEditor, labelLocales, type LabelRow } from '../../../services/labels/label-editor.js';
import { saveLabels } from '../../../services/labels/save-labels.js';
import {
  adminFormOutcome,
  claimAdminForm,
  recordAdminFormOutcome,
  releaseAdminForm,
} from '../../../store/repositories/admin-sessions.js';
import type { AdminContext } from '../../admin-app.js';
import { problemsSummary } from '../../forms.js';
import { issueAtPlace, issueInWords, issuesOf } from '../../../messages/issue-words.js';
import { sendPage } from '../../render.js';
import { csrfTokenFor, requireStaff } from '../../staff.js';
import { labelTemplateScript } from './label-template-script.js';

/** Form fields carrying label texts are named `label:<key>` (keys are free text in the import). */
const FIELD_PREFIX = 'label:';

interface LocaleRoute {
  Params: { locale: string };
  Querystring: Record<string, string>;
}

interface EditorState {
  status?: number;
  summary?: string;
  issues?: Record<string, string>;
  values?: Record<string, string>;
  notice?: string;
}

const SUMMARY_HINTS: Record<string, string> = {
  unitPrice: 'Name of the unit price property',
  unitPricePropertyName: 'Unit price: property name',
  unitPricePropertyValue: 'Unit price: property value',
  netMeasurementLabel: 'Net measurement: property name',
  netMeasurementValue: 'Net measurement: property value',
};

/** What a key is for, in a few words under it. */
function hintFor(row: LabelRow): string {
  if (!row.tokens) return 'A key of this shop’s own, shown as written';
  if (!row.type) return SUMMARY_HINTS[row.key] ?? '';
  if (!row.unit) return `Name of the ${row.type} property`;
  return row.tokens.includes('Price') ? `Unit price per ${row.unit}` : `Net ${row.type} in ${row.unit}`;
}

/** Posted texts by label key. */
function postedTexts(body: unknown): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (name.startsWith(FIELD_PREFIX) && typeof value === 'string') texts[name.slice(FIELD_PREFIX.length)] = value;
  }
  return texts;
}

/**
 * The import's issues (`/labels/fr/unitPrice`) beside their fields, by key, in words; `locale`
 * for the locale itself; any other said at the top, after the count.
 */
function issuesByKey(
  error: AppError,
  locale: string,
  keys: string[],
): { summary: string; issues: Record<string, string> } {
  const issues: Record<string, string> = {};
  const elsewhere: string[] = [];
  const base = `/labels/${escapePointer(locale)}`;
  for (const issue of issuesOf(error)) {
    const key = keys.find((k) => issue.path === `${base}/${escapePointer(k)}`);
    if (issue.path === base) issues.locale ??= issueInWords('Locale', issue.message);
    else if (key !== undefined) issues[`${FIELD_PREFIX}${key}`] ??= issueInWords(key, issue.message);
    else elsewhere.push(`${issueAtPlace(issue)}.`);
  }
  return { summary: [problemsSummary(Object.keys(issues).length), ...elsewhere].join(' '), issues };
}

/**
 * /admin/labels: the shop's label texts per locale (PRODUCT.md §17), each with a preview of what
 * customers read filled by the storefront's own renderTemplate. Saving is an import of the
 * locale's `labels` (validated and written as `tare import` does); a cleared field removes the
 * override in the same transaction.
 */
export function labelRoutes(ctx: AdminContext) {
  async function localesPage(request: FastifyRequest, reply: FastifyReply, state: EditorState = {}) {
    const staff = request.staff!;
    const { defaultLocale, locales } = await labelLocales(ctx.db, staff.shopId);
    return sendPage(reply, state.status ?? 200, 'labels', {
      title: 'Labels',
      current: 'labels',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      defaultLocale,
      locales,
      values: state.values ?? {},
      issues: state.issues ?? {},
      summary: state.summary,
      notice: state.notice,
    });
  }

  async function editorPage(request: FastifyRequest<LocaleRoute>, reply: FastifyReply, state: EditorState = {}) {
    const staff = request.staff!;
    const editor = await labelEditor(ctx.db, staff.shopId, normalizeLocale(request.params.locale)!);
    const values = state.values ?? {};
    // A refused form shows what was typed, and its preview, rather than what is stored.
    for (const row of editor.groups.flatMap((group) => group.rows)) {
      const typed = values[row.key];
      if (typed === undefined) continue;
      const text = typed.trim() === '' ? (row.fallback ?? '') : typed;
      row.preview = previewLabel(text, row.tokens, row.preview.examples);
    }
    return sendPage(reply, state.status ?? 200, 'labels-locale', {
      title: `Labels · ${editor.locale}`,
      current: 'labels',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      formId: ctx.formIds.issue(['labels', editor.locale]),
      scripts: ['labels.js'],
      editor,
      fieldPrefix: FIELD_PREFIX,
      hintFor,
      values,
      issues: state.issues ?? {},
      summary: state.summary,
      notice: state.notice,
    });
  }

  /** A locale that is not a BCP 47 tag is refused on the list page, as the import refuses it. */
  function badLocale(request: FastifyRequest, reply: FastifyReply, locale: string, summary?: string) {
    return localesPage(request, reply, {
      status: 400,
      summary,
      values: { locale },
      issues: { locale: `Locale '${locale}' is not a valid locale` },
    });
  }

  return async (root: FastifyInstance) => {
    // An asset, like those of @fastify/static: served without a session.
    root.get('/admin/assets/label-template.js', labelTemplateScript);
    await root.register(pages);
  };

  async function pages(app: FastifyInstance) {
    app.addHook('preValidation', requireStaff);

    app.get<{ Querystring: Record<string, string> }>('/admin/labels', (request, reply) => {
      const asked = request.query.locale?.trim();
      if (asked === undefined) return localesPage(request, reply);
      const locale = normalizeLocale(asked);
      if (!locale) return badLocale(request, reply, asked);
      return reply.redirect(`/admin/labels/${encodeURIComponent(locale)}`, 303);
    });

    app.get<LocaleRoute>('/admin/labels/:locale', (request, reply) => {
      const { locale } = request.params;
      const canonical = normalizeLocale(locale);
      if (!canonical) return badLocale(request, reply, locale);
      if (canonical !== locale) return reply.redirect(`/admin/labels/${encodeURIComponent(canonical)}`, 303);
      const saved = request.query.saved;
      const notice =
        saved === '1'
          ? 'Labels saved: storefronts read them on their next request.'
          : saved === '0'
            ? 'Nothing to save: every label already read so.'
            : undefined;
      return editorPage(request, reply, { notice });
    });

    app.post<LocaleRoute>('/admin/labels/:locale', { preHandler: app.csrfProtection }, async (request, reply) => {
      const staff = request.staff!;
      const { locale } = request.params;
      const formId = ctx.formIds.posted(request.body, ['labels', normalizeLocale(locale) ?? locale]);
      const done = (changed: boolean) =>
        `/admin/labels/${encodeURIComponent(normalizeLocale(locale) ?? locale)}?saved=${changed ? 1 : 0}`;
      // The first post of this form claims it; a second one (a double click) writes nothing more.
      if (!(await claimAdminForm(ctx.db, staff.tokenSha256, formId))) {
        const first = (await adminFormOutcome(ctx.db, staff.tokenSha256, formId)) as { changed?: boolean } | null;
        if (first) return reply.redirect(done(first.changed === true), 303);
        return localesPage(request, reply, {
          status: 409,
          notice: 'This form was sent twice; the first is still being saved. Reload the page in a moment.',
        });
      }
      const texts = postedTexts(request.body);
      try {
        const { changed } = await saveLabels(ctx, { shopId: staff.shopId, locale, texts });
        await recordAdminFormOutcome(ctx.db, staff.tokenSha256, formId, { changed });
        return reply.redirect(done(changed), 303);
      } catch (error) {
        // Nothing was written: the same form may be corrected and sent again.
        await releaseAdminForm(ctx.db, staff.tokenSha256, formId);
        if (!(error instanceof AppError) || error.code !== 'bad_request') throw error;
        if (!normalizeLocale(locale)) return badLocale(request, reply, locale, problemsSummary(1));
        const shown = issuesByKey(error, normalizeLocale(locale)!, Object.keys(texts));
        return editorPage(request, reply, { status: 400, ...shown, values: texts });
      }
    });
  }
}
