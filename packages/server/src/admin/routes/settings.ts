import type { ValidationIssue } from '@tare/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describePlatform, platformBacklog } from '../../cli/platform-show.js';
import { errors } from '../../errors.js';
import { validateImport } from '../../services/catalog-import/validate-import.js';
import { describeSkippedLine } from '../../services/events/reconcile.js';
import { SecretsKeyError } from '../../secrets/keyring.js';
import { claimAdminForm, recordAdminFormOutcome, releaseAdminForm } from '../../store/repositories/admin-sessions.js';
import { listSkippedOrders } from '../../store/repositories/order-bookings.js';
import { listFailingEvents } from '../../store/repositories/platform-events.js';
import { lastReconciliationReport } from '../../store/repositories/reconciliation.js';
import { findShopById, type Shop } from '../../store/repositories/shops.js';
import { readScaleFormats } from '../../store/repositories/scale-barcodes.js';
import type { AdminContext } from '../admin-app.js';
import { field, formIssues } from '../forms.js';
import { readTypedNumber } from '../typed-number.js';
import { sendPage } from '../render.js';
import { csrfTokenFor, requireStaff } from '../staff.js';
import {
  postedUnitAndScaleValues,
  referenceUnits,
  unitAndScaleField,
  unitAndScaleLabels,
  unitAndScaleSettings,
  type UnitAndScaleValues,
  unitAndScaleValuesOf,
} from './unit-and-scale-settings.js';

/** The form's field for each setting of the import file, and how its messages name it. */
const FIELDS: Record<string, { path: string; label: string }> = {
  mergeMatchingLineItems: { path: '/settings/mergeMatchingLineItems', label: 'Merge matching line items' },
  addonActive: { path: '/addonActive', label: 'Order-editing add-on' },
  rateLimitEnabled: { path: '/settings/rateLimit/enabled', label: 'Rate limit' },
  requestsPerMinute: { path: '/settings/rateLimit/requestsPerMinute', label: 'Requests per minute' },
  platformStockChanges: { path: '/settings/platformStockChanges', label: 'Stock typed on the platform' },
};
const LABELS = Object.fromEntries(Object.entries(FIELDS).map(([name, { label }]) => [name, label]));
/** Rendered as a hidden field: a post without it is not this form, and its missing boxes do not mean "off". */
const FORM_MARKER = 'settings';

const NOTICES: Record<string, string> = {
  saved: 'Settings saved: the API and the storefront use them from the next request.',
  twice: 'This form was sent twice; only the first was applied. Below are the shop’s settings now.',
};

type Values = Record<keyof typeof FIELDS, string | boolean>;

interface PageState {
  status?: number;
  notice?: string;
  values?: Values;
  measures?: UnitAndScaleValues;
  summary?: string;
  issues?: Record<string, string>;
}

function valuesOf(shop: Shop): Values {
  return {
    mergeMatchingLineItems: shop.mergeMatchingLineItems === true,
    addonActive: shop.addonActive,
    rateLimitEnabled: shop.rateLimit.enabled,
    requestsPerMinute: String(shop.rateLimit.requestsPerMinute),
    platformStockChanges: shop.platformStockChanges,
  };
}

/** What the form sent; an unchecked box is sent by no browser, so it is false here. */
function postedValues(body: unknown): Values {
  return {
    mergeMatchingLineItems: field(body, 'mergeMatchingLineItems') === 'on',
    addonActive: field(body, 'addonActive') === 'on',
    rateLimitEnabled: field(body, 'rateLimitEnabled') === 'on',
    requestsPerMinute: field(body, 'requestsPerMinute').trim(),
    platformStockChanges: field(body, 'platformStockChanges'),
  };
}

/**
 * The shop's settings as a one-shop import document (PRODUCT.md §11): domain and currency as
 * stored, nothing else of the shop named, so its catalog, labels and connection are kept.
 */
function settingsDocument(shop: Shop, values: Values, measures: Record<string, unknown>) {
  const perMinute = String(values.requestsPerMinute);
  const typed = readTypedNumber(perMinute);
  return {
    shops: [
      {
        domain: shop.domain,
        currency: shop.currency,
        addonActive: values.addonActive,
        settings: {
          mergeMatchingLineItems: values.mergeMatchingLineItems,
          // An empty radio group sends nothing: left out, the import keeps the stored choice.
          ...(values.platformStockChanges === '' ? {} : { platformStockChanges: values.platformStockChanges }),
          rateLimit: {
            enabled: values.rateLimitEnabled,
            // A number goes in as JSON would carry it (`1 000` too, see readTypedNumber); anything
            // else as the text typed, which the import's validation then names.
            requestsPerMinute: typed.ok ? Number(typed.text) : perMinute,
          },
          ...measures,
        },
      },
    ],
  };
}

/**
 * The import's issues (`/shops/0/settings/rateLimit/requestsPerMinute`) on the form's fields
 * (`rowOfFormat`: the form row of each scale label format of the document).
 */
function onFormFields(issues: ValidationIssue[], rowOfFormat: number[]): ValidationIssue[] {
  return issues.map((issue) => {
    const inShop = issue.path.replace(/^\/shops\/0/, '');
    const name = Object.keys(FIELDS).find((key) => FIELDS[key]!.path === inShop);
    if (name) return { ...issue, path: `/${name}` };
    const measure = unitAndScaleField(issue.path, rowOfFormat);
    return measure ? { ...issue, path: `/${measure}` } : issue;
  });
}

/** How long ago, in the largest whole unit: `40 s`, `12 min`, `3 h`, `2 days`. */
function age(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  const days = Math.floor(seconds / 86_400);
  return `${days} day${days === 1 ? '' : 's'}`;
}

/**
 * /admin/settings: the shop's settings, saved as an import of them (validated and written by the
 * import's own services, so its caches drop on every instance), and the health of the shop's
 * platform connection: inbox, outbox and the last reconciliation, for this shop only.
 */
export function settingsRoutes(ctx: AdminContext) {
  async function settingsPage(request: FastifyRequest, reply: FastifyReply, state: PageState = {}) {
    const staff = request.staff!;
    const shop = await findShopById(ctx.db, staff.shopId);
    if (!shop) throw errors.notFound('shop', staff.shopDomain);
    return sendPage(reply, state.status ?? 200, 'settings', {
      title: 'Settings',
      current: 'settings',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      formId: ctx.formIds.issue(['settings']),
      marker: FORM_MARKER,
      shop,
      values: state.values ?? valuesOf(shop),
      measures: state.measures ?? unitAndScaleValuesOf(shop.unitPricing, await readScaleFormats(ctx.db, shop.id)),
      referenceUnits,
      issues: state.issues ?? {},
      summary: state.summary,
      notice: state.notice,
      health: await connectionHealth(shop),
    });
  }

  async function connectionHealth(shop: Shop) {
    const ago = (date: Date | string | null | undefined) => (date ? age(Date.now() - new Date(date).getTime()) : '');
    const reconciliation = await lastReconciliationReport(ctx.db, shop.id);
    // Which event is stuck and which order lines were not booked, each with its reason.
    const stuck = {
      failingEvents: await listFailingEvents(ctx.db, shop.id),
      skippedOrders: await listSkippedOrders(ctx.db, shop.id),
      skippedBecause: describeSkippedLine,
    };
    try {
      return { ...(await describePlatform(ctx, shop)), ...stuck, reconciliation, ago, problem: undefined };
    } catch (error) {
      // Credentials sealed with a key this server does not hold: the page still opens and says so.
      if (!(error instanceof SecretsKeyError)) throw error;
      return {
        ...(await platformBacklog(ctx.db, shop)),
        shopify: null,
        ...stuck,
        reconciliation,
        ago,
        problem: error.message,
      };
    }
  }

  return async (app: FastifyInstance) => {
    app.addHook('preValidation', requireStaff);

    app.get<{ Querystring: Record<string, string> }>('/admin/settings', (request, reply) =>
      settingsPage(request, reply, { notice: NOTICES[request.query.done ?? ''] }),
    );

    app.post('/admin/settings', { preHandler: app.csrfProtection }, async (request, reply) => {
      const staff = request.staff!;
      if (field(request.body, 'form') !== FORM_MARKER)
        throw errors.badRequest('The form is incomplete; reload the page.');
      const formId = ctx.formIds.posted(request.body, ['settings']);
      // The first post of this form claims it; a second one (a double click, a resent page)
      // applies nothing, so it cannot undo a change made since.
      if (!(await claimAdminForm(ctx.db, staff.tokenSha256, formId))) {
        return reply.redirect('/admin/settings?done=twice', 303);
      }
      const values = postedValues(request.body);
      const measures = postedUnitAndScaleValues(request.body);
      try {
        const shop = await findShopById(ctx.db, staff.shopId);
        if (!shop) throw errors.notFound('shop', staff.shopDomain);
        const typed = readTypedNumber(String(values.requestsPerMinute ?? ''));
        // `1,000` could be a thousand or one: said beside the field rather than guessed.
        if (!typed.ok && typed.ambiguous)
          throw errors.validation([{ path: '/requestsPerMinute', message: typed.hint }]);
        const stored = { unitPricing: shop.unitPricing, formats: await readScaleFormats(ctx.db, shop.id) };
        const { settings, rowOfFormat } = unitAndScaleSettings(measures, stored);
        const checked = validateImport(settingsDocument(shop, values, settings));
        if (!checked.ok) throw errors.validation(onFormFields(checked.issues, rowOfFormat));
        await ctx.importCatalog(checked.value);
        await recordAdminFormOutcome(ctx.db, staff.tokenSha256, formId, { saved: true });
      } catch (error) {
        // Nothing was written: the same form may be corrected and sent again.
        await releaseAdminForm(ctx.db, staff.tokenSha256, formId);
        const shown = formIssues(error, { ...LABELS, ...unitAndScaleLabels(measures.scaleRows.length) });
        if (!shown) throw error;
        return settingsPage(request, reply, { status: 400, values, measures, ...shown });
      }
      return reply.redirect('/admin/settings?done=saved', 303);
    });
  };
}
