import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InventoryOperation } from '../../../domain/inventory.js';
import { errors } from '../../../errors.js';
import { createStockItemReader } from '../../../services/stock-items/read-stock-items.js';
import type { AdminContext } from '../../admin-app.js';
import { field, type FormTarget, formIssues } from '../../forms.js';
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

const DONE: Record<string, string> = {
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
    state: { status?: number; summary?: string; issues?: Record<string, string>; operation?: string } = {},
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
      operation: state.operation,
      values: request.method === 'POST' ? request.body : {},
    });
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
