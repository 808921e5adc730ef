import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InventoryOperation } from '../../domain/inventory.js';
import { unitsOf } from '../../domain/units.js';
import { AppError, errors } from '../../errors.js';
import { ordersOfRefunds } from '../../store/repositories/booked-orders.js';
import { findStockItems } from '../../store/repositories/stock-items.js';
import { stockOf, stockOverview } from '../../services/inventory/stock-overview.js';
import { decodeShopScaleBarcode } from '../../services/scale-barcodes/decode-scale-barcode.js';
import type { AdminContext } from '../admin-app.js';
import { field, type FormTarget, formIssues, problemsSummary } from '../forms.js';
import { readTypedNumber } from '../typed-number.js';
import { sendPage } from '../render.js';
import { levelHistory } from '../display/level-history.js';
import { writeInventoryAsStaff } from '../staff-inventory-write.js';
import { itemPath, itemsAtLocations } from './stock-items/item-page.js';
import { csrfTokenFor, requireStaff } from '../staff.js';

const LEDGER_ROWS = 100;

interface Level {
  Params: { locationId: string; variantId: string };
  Querystring: Record<string, string>;
}

/** What an adjust or set form acts on: the level, and which of the two it is. */
const formOf = (locationId: string, variantId: string, action: 'adjust' | 'set'): FormTarget => [
  'inventory',
  locationId,
  variantId,
  action,
];

const DONE: Record<string, string> = {
  adjustment: 'Stock adjusted: the ledger below has the new entry.',
  set: 'Stock set: the ledger below has the new entry.',
  scan: 'Scale label booked as a sale at the counter: the ledger below has the new entry.',
};

const levelPath = (locationId: string, variantId: string) =>
  `/admin/inventory/${encodeURIComponent(locationId)}/${encodeURIComponent(variantId)}`;

/** The scan form of the overview: one per page, not bound to a level (the label names the variant). */
const SCAN_FORM: FormTarget = ['inventory', 'scan'];

/**
 * /admin/inventory: every level (exact total, the platform's whole units, the fraction), and per
 * level its ledger, a chart of it over time, and adjust / set forms that make the API's
 * idempotent write (the form's id is its Idempotency-Key, so a double post applies once).
 */
export function inventoryRoutes(ctx: AdminContext) {
  async function levelPage(
    request: FastifyRequest<Level>,
    reply: FastifyReply,
    state: { status?: number; summary?: string; issues?: Record<string, string>; operation?: string } = {},
  ) {
    const staff = request.staff!;
    const { locationId, variantId } = request.params;
    // Another shop's variant or location is not found here, exactly like the API answers it.
    const row = await stockOf(ctx, staff.shopId, locationId, variantId);
    const ledger = await ctx.readInventory.ledgerWithActors(staff.shopId, {
      locationId,
      variantId,
      limit: LEDGER_ROWS,
    });
    const entries = ledger.data.entries;
    const refundIds = entries.flatMap((entry) =>
      entry.reference?.type === 'refund' ? [entry.reference.id ?? ''] : [],
    );
    const refundOrders = await ordersOfRefunds(ctx.db, staff.shopId, refundIds);
    // A linked variant's level is its stock item's (PRODUCT.md §20): written on the item's page.
    const itemId = row.level.stockItemId;
    const stockItem = itemId ? (await findStockItems(ctx.db, staff.shopId, [itemId])).get(itemId) : undefined;
    const done = request.query.done;
    return sendPage(reply, state.status ?? 200, 'inventory-level', {
      title: `${row.productTitle} — ${row.variantTitle}`,
      current: 'inventory',
      chart: true,
      staff,
      csrfToken: csrfTokenFor(request, reply),
      formIds: {
        adjust: ctx.formIds.issue(formOf(locationId, variantId, 'adjust')),
        set: ctx.formIds.issue(formOf(locationId, variantId, 'set')),
      },
      row,
      stockItem,
      level: row.level,
      units: unitsOf(row.measurementType as never),
      entries,
      actors: ledger.actors,
      refundOrders,
      history: JSON.stringify(levelHistory(row, entries)),
      notice: done && DONE[done],
      summary: state.summary,
      issues: state.issues ?? {},
      operation: state.operation,
      values: request.method === 'POST' ? request.body : {},
    });
  }

  const writeAsStaff = (request: FastifyRequest, formId: string, write: Parameters<typeof writeInventoryAsStaff>[3]) =>
    writeInventoryAsStaff(ctx, request, formId, write);

  async function write(request: FastifyRequest<Level>, reply: FastifyReply, operation: InventoryOperation) {
    const { locationId, variantId } = request.params;
    const name = operation === 'adjustment' ? 'delta' : 'quantity';
    const text = field(request.body, name).trim();
    const unit = field(request.body, 'unit');
    const formId = ctx.formIds.posted(
      request.body,
      formOf(locationId, variantId, operation === 'adjustment' ? 'adjust' : 'set'),
    );
    try {
      const typed = readTypedNumber(text);
      if (!typed.ok) throw errors.validation([{ path: `/${name}/value`, message: typed.hint }]);
      await writeAsStaff(request, formId, {
        operation,
        locationId,
        // Parsed as the API parses JSON numbers; the writer makes it exact (decimal.js).
        entries: [{ variantId, value: Number(typed.text), unit, path: '', field: name }],
      });
    } catch (error) {
      const shown = formIssues(error, { delta: 'Change', quantity: 'New level' });
      if (!shown) throw error;
      return levelPage(request, reply, { status: 400, ...shown, operation });
    }
    return reply.redirect(`${levelPath(locationId, variantId)}?done=${operation}`, 303);
  }

  async function overviewPage(
    request: FastifyRequest,
    reply: FastifyReply,
    state: { status?: number; summary?: string; issues?: Record<string, string> } = {},
  ) {
    const staff = request.staff!;
    const { rows, locations: all } = await stockOverview(ctx, staff.shopId);
    const locations = [...new Map(rows.map((row) => [row.location.id, row.location])).values()];
    // Every location: an item is stocked before any variant sells from it.
    const items = await itemsAtLocations(ctx.db, staff.shopId, all);
    return sendPage(reply, state.status ?? 200, 'inventory', {
      title: 'Inventory',
      current: 'inventory',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      // A linked variant's level is its item's: it is listed under the item, not on its own.
      rows: rows.filter((row) => !row.level.stockItemId),
      variants: new Map(rows.map((row) => [row.variantId, row])),
      items,
      locations,
      scanFormId: ctx.formIds.issue(SCAN_FORM),
      itemPath,
      summary: state.summary,
      issues: state.issues ?? {},
      values: request.method === 'POST' ? request.body : {},
    });
  }

  /**
   * A scanned scale label (PRODUCT.md §22; a keyboard-wedge scanner types the 13 digits and Enter)
   * read by the API's decoder and booked as a sale at the counter: the level of the variant it
   * names goes down by its measurement, through the same idempotent write as the other forms.
   */
  async function scan(request: FastifyRequest, reply: FastifyReply) {
    const staff = request.staff!;
    const code = field(request.body, 'code').trim();
    const locationId = field(request.body, 'locationId');
    const formId = ctx.formIds.posted(request.body, SCAN_FORM);
    let variantId: string;
    try {
      const label = await decodeShopScaleBarcode(ctx.db, staff.shopId, code);
      variantId = label.variantId;
      const { value, unit } = label.measurement;
      await writeAsStaff(request, formId, {
        operation: 'adjustment',
        locationId,
        entries: [{ variantId, value: -value, unit, path: '', field: 'delta' }],
      });
    } catch (error) {
      // An unknown item or a label that cannot measure its variant is the scan's fault too.
      const refused = error instanceof AppError && ['not_found', 'unprocessable'].includes(error.code);
      const shown = refused
        ? { summary: problemsSummary(1), issues: { code: `Label: ${error.message}` } }
        : formIssues(error, { code: 'Label', locationId: 'Location' }, () => 'code');
      if (!shown) throw error;
      return overviewPage(request, reply, { status: refused ? error.status : 400, ...shown });
    }
    return reply.redirect(`${levelPath(locationId, variantId)}?done=scan`, 303);
  }

  return async (app: FastifyInstance) => {
    app.addHook('preValidation', requireStaff);
    app.get('/admin/inventory', (request, reply) => overviewPage(request, reply));
    app.post('/admin/inventory/scan', { preHandler: app.csrfProtection }, scan);
    app.get<Level>('/admin/inventory/:locationId/:variantId', (request, reply) => levelPage(request, reply));
    app.post<Level>(
      '/admin/inventory/:locationId/:variantId/adjust',
      { preHandler: app.csrfProtection },
      (request, reply) => write(request, reply, 'adjustment'),
    );
    app.post<Level>(
      '/admin/inventory/:locationId/:variantId/set',
      { preHandler: app.csrfProtection },
      (request, reply) => write(request, reply, 'set'),
    );
  };
}
