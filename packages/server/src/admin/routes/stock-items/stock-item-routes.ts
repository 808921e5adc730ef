import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InventoryOperation } from '../../../domain/inventory.js';
import { errors } from '../../../errors.js';
import { createStockItemReader } from '../../../services/stock-items/read-stock-items.js';
import type { AdminContext } from '../../admin-app.js';
import { MEASUREMENT_TYPES } from '../../../domain/units.js';
import { findStockItems, listLinkedVariants } from '../../../store/repositories/stock-items.js';
import { field, type FormTarget, formIssues, problemsSummary } from '../../forms.js';
import { type ItemValues, postedItem, saveStockItem, UNIT_GROUPS } from './item-form.js';
import { sendPage } from '../../render.js';
import { writeInventoryAsStaff } from '../../staff-inventory-write.js';
import { csrfTokenFor, requireStaff } from '../../staff.js';
import { readTypedNumber } from '../../typed-number.js';
import { itemPath, readItemPage, variantPagePath } from './item-page.js';

interface Item {
  Params: { stockItemId: string };
  Querystring: Record<string, string>;
}

type Action = 'adjust' | 'set';

/** An item page's adjust or set form, bound to the item and the location it was shown at. */
const formOf = (stockItemId: string, locationId: string, action: Action): FormTarget => [
  'stock-item',
  stockItemId,
  locationId,
  action,
];

interface FormState {
  status?: number;
  summary?: string;
  issues?: Record<string, string>;
  other?: string[];
  item?: ItemValues;
}

const DONE: Record<string, string> = {
  created: 'Stock item created: link variants to it on their pages, and set its stock below.',
  saved: 'Stock item saved.',
  unchanged: 'Nothing to save: the item was already so.',
  adjustment: 'Stock adjusted: every linked variant follows, and the ledger below has the new entry.',
  set: 'Stock set: every linked variant follows, and the ledger below has the new entry.',
};

/**
 * /admin/inventory/stock-items/:id (PRODUCT.md §20): one stock shared by several variants. The
 * item's exact total in its unit, each linked variant's whole units and fraction, the item's
 * ledger and chart, and adjust / set forms in the item's unit that make the API's idempotent
 * write on the item (through a linked variant, the ledger row naming none).
 */
export function stockItemRoutes(ctx: AdminContext) {
  async function itemPage(
    request: FastifyRequest<Item>,
    reply: FastifyReply,
    state: FormState & { operation?: string } = {},
  ) {
    const staff = request.staff!;
    const { stockItemId } = request.params;
    const asked = request.method === 'POST' ? field(request.body, 'locationId') : request.query.location;
    const page = await readItemPage(ctx.db, staff.shopId, stockItemId, asked || undefined);
    return sendPage(reply, state.status ?? 200, 'stock-item', {
      title: `${page.item.title} (stock item)`,
      current: 'inventory',
      chart: true,
      staff,
      csrfToken: csrfTokenFor(request, reply),
      ...page,
      base: itemPath(stockItemId),
      variantPagePath,
      formIds: {
        adjust: ctx.formIds.issue(formOf(stockItemId, page.location.id, 'adjust')),
        set: ctx.formIds.issue(formOf(stockItemId, page.location.id, 'set')),
      },
      notice: DONE[request.query.done ?? ''],
      summary: state.summary,
      issues: state.issues ?? {},
      other: state.other ?? [],
      operation: state.operation,
      values: request.method === 'POST' ? request.body : {},
      itemForm: state.item ?? {
        itemId: page.item.id,
        itemTitle: page.item.title,
        itemType: page.item.measurementType,
        itemUnit: page.item.unit,
      },
      types: MEASUREMENT_TYPES,
      unitGroups: UNIT_GROUPS,
    });
  }

  /** The shop's stock items, each with how many variants sell from it, and the form adding one. */
  async function listPage(request: FastifyRequest, reply: FastifyReply, state: FormState = {}) {
    const staff = request.staff!;
    const items = [...(await findStockItems(ctx.db, staff.shopId)).values()];
    const linked = await listLinkedVariants(
      ctx.db,
      staff.shopId,
      items.map((item) => item.id),
    );
    return sendPage(reply, state.status ?? 200, 'stock-items', {
      title: 'Stock items',
      current: 'inventory',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      items: items.map((item) => ({ ...item, variants: linked.get(item.id)?.length ?? 0 })),
      itemPath,
      types: MEASUREMENT_TYPES,
      unitGroups: UNIT_GROUPS,
      itemForm: state.item ?? { itemId: '', itemTitle: '', itemType: 'weight', itemUnit: 'kg' },
      summary: state.summary,
      issues: state.issues ?? {},
      other: state.other ?? [],
    });
  }

  /** Creates the posted item, or changes the item of the page (title, type, unit). */
  async function saveItem(request: FastifyRequest, reply: FastifyReply, editing?: string) {
    const staff = request.staff!;
    const values = postedItem(request.body);
    if (editing !== undefined) values.itemId = editing;
    const saved = await saveStockItem(ctx, staff.shopId, values, editing === undefined);
    if (!saved.ok) {
      const count = Object.keys(saved.issues).length + saved.other.length;
      const state: FormState = {
        status: saved.status,
        summary: problemsSummary(count),
        issues: saved.issues as Record<string, string>,
        other: saved.other,
        item: values,
      };
      if (editing === undefined) return listPage(request, reply, state);
      return itemPage(request as FastifyRequest<Item>, reply, state);
    }
    const done = editing === undefined ? 'created' : saved.changed ? 'saved' : 'unchanged';
    return reply.redirect(`${itemPath(values.itemId)}?done=${done}`, 303);
  }

  async function write(request: FastifyRequest<Item>, reply: FastifyReply, operation: InventoryOperation) {
    const staff = request.staff!;
    const { stockItemId } = request.params;
    const locationId = field(request.body, 'locationId');
    const name = operation === 'adjustment' ? 'delta' : 'quantity';
    const text = field(request.body, name).trim();
    const unit = field(request.body, 'unit');
    const formId = ctx.formIds.posted(
      request.body,
      formOf(stockItemId, locationId, operation === 'adjustment' ? 'adjust' : 'set'),
    );
    try {
      // The writer reaches an item through a linked variant; the value, in the item's unit, is
      // booked on the item exactly (no conversion through the variant's unit).
      const level = await createStockItemReader({ db: ctx.db }).levels(staff.shopId, stockItemId, locationId);
      const through = level.variants[0]?.variantId;
      if (!through) {
        throw errors.validation([
          { path: `/${name}/value`, message: 'cannot be booked yet: link a variant to this stock item first' },
        ]);
      }
      const typed = readTypedNumber(text);
      if (!typed.ok) throw errors.validation([{ path: `/${name}/value`, message: typed.hint }]);
      await writeInventoryAsStaff(ctx, request, formId, {
        operation,
        locationId,
        entries: [
          { variantId: through, onStockItem: stockItemId, value: Number(typed.text), unit, path: '', field: name },
        ],
      });
    } catch (error) {
      const shown = formIssues(error, { delta: 'Change', quantity: 'New level' });
      if (!shown) throw error;
      return itemPage(request, reply, { status: 400, ...shown, operation });
    }
    const query = new URLSearchParams({ location: locationId, done: operation });
    return reply.redirect(`${itemPath(stockItemId)}?${query}`, 303);
  }

  return async (app: FastifyInstance) => {
    app.addHook('preValidation', requireStaff);
    app.get('/admin/inventory/stock-items', (request, reply) => listPage(request, reply));
    app.post('/admin/inventory/stock-items', { preHandler: app.csrfProtection }, (request, reply) =>
      saveItem(request, reply),
    );
    app.post<Item>(
      '/admin/inventory/stock-items/:stockItemId/edit',
      { preHandler: app.csrfProtection },
      (request, reply) => saveItem(request, reply, request.params.stockItemId),
    );
    app.get<Item>('/admin/inventory/stock-items/:stockItemId', (request, reply) => itemPage(request, reply));
    app.post<Item>(
      '/admin/inventory/stock-items/:stockItemId/adjust',
      { preHandler: app.csrfProtection },
      (request, reply) => write(request, reply, 'adjustment'),
    );
    app.post<Item>(
      '/admin/inventory/stock-items/:stockItemId/set',
      { preHandler: app.csrfProtection },
      (request, reply) => write(request, reply, 'set'),
    );
  };
}
