import { OrderParams } from '@tare/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestFingerprint } from '../../../domain/idempotency-key.js';
import { describeCustomer } from '../../../domain/order-reference.js';
import { unitsOf } from '../../../domain/units.js';
import { AppError, errors } from '../../../errors.js';
import { bookedOrdersPage, orderDetail } from '../../../services/orders/order-overview.js';
import type { AdminContext } from '../../admin-app.js';
import { notFoundPage } from '../../error-pages.js';
import { field, formIssues } from '../../forms.js';
import { orderMoney } from '../../display/order-money.js';
import { describeBooking, describeEdit } from './order-display.js';
import { apiValidator, editFromForm, fieldOfIssue, issueLabels, shownValues } from './order-edit-form.js';
import { sendPage } from '../../render.js';
import { csrfTokenFor, requireStaff, staffActor } from '../../staff.js';

interface OrderRoute {
  Params: { orderId: string };
  Querystring: Record<string, string>;
}

interface PageState {
  status?: number;
  summary?: string;
  issues?: Record<string, string>;
}

// The API's own check of an order id in a path, so the find form names a bad id in its words.
const orderIdIssues = apiValidator(OrderParams, 'params');

/** Refusals a merchant meets on a form sent twice with different values, in their words. */
const IDEMPOTENCY_MESSAGES: Partial<Record<string, string>> = {
  idempotency_key_reused:
    'This form was already sent with other values, and that edit stands; nothing more was changed. The lines below are as they are now.',
  idempotency_key_in_use: 'This form is still being applied; reload the page in a moment.',
};

/**
 * /admin/orders: the orders Tare has booked (newest first), any order of the platform by id, and
 * one order's service-managed lines read and edited through the services `GET` and `PATCH
 * /api/v1/orders/{id}` use. The edit form's id is its Idempotency-Key: a double post applies once.
 */
export function orderRoutes(ctx: AdminContext) {
  async function listPage(request: FastifyRequest<{ Querystring: Record<string, string> }>, reply: FastifyReply) {
    const staff = request.staff!;
    const wanted = request.query.orderId?.trim();
    let issues: Record<string, string> = {};
    if (wanted !== undefined) {
      const refused = orderIdIssues({ orderId: wanted });
      if (!refused) return reply.redirect(`/admin/orders/${wanted}`, 303);
      issues = formIssues(errors.validation(refused, 'params'), { orderId: 'Order id' })!.issues;
    }
    const page = await bookedOrdersPage(ctx.db, staff.shopId, request.query.after);
    const orders = page.orders.map((order) => ({ ...order, customerText: describeCustomer(order.customer) }));
    const { nextCursor } = page;
    return sendPage(reply, wanted === undefined ? 200 : 400, 'orders', {
      title: 'Orders',
      current: 'orders',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      orders,
      nextCursor,
      firstPage: request.query.after === undefined,
      wanted: wanted ?? '',
      issues,
    });
  }

  async function orderPage(request: FastifyRequest<OrderRoute>, reply: FastifyReply, state: PageState = {}) {
    const staff = request.staff!;
    const { orderId } = request.params;
    // An id no platform issues is no order of this shop: the same page as an unknown one.
    if (orderIdIssues({ orderId })) return notFoundPage(request, reply);
    const detail = await orderDetail(ctx, staff.shopId, orderId);
    const { catalog } = detail;
    const lines = detail.order.items.map((item) => ({
      item,
      productTitle: (item.productId && catalog.products.get(item.productId)?.title) ?? 'Custom line',
      variantTitle: item.variantId ? (catalog.variants.get(item.variantId)?.title ?? `Variant ${item.variantId}`) : '',
      shown: shownValues(item),
      units: unitsOf(item.measurement.type as never),
      variants: [...catalog.variants].flatMap(([id, variant]) =>
        item.productId && variant.productId === item.productId
          ? [
              {
                id,
                title: variant.title,
                per: variant.unitValue === '1' ? variant.unit : `${variant.unitValue} ${variant.unit}`,
              },
            ]
          : [],
      ),
    }));
    return sendPage(reply, state.status ?? 200, 'order', {
      title: `Order ${detail.platform.name}`,
      orderName: detail.platform.name,
      customer: describeCustomer(detail.platform.customer),
      hasCustomer: Boolean(detail.platform.customer),
      current: 'orders',
      staff,
      csrfToken: csrfTokenFor(request, reply),
      formId: ctx.formIds.issue(['order', orderId, 'edit']),
      order: detail.order,
      placedAt: detail.platform.createdAt,
      money: orderMoney(
        detail.platform.lineItems,
        new Set(detail.order.items.map((item) => item.lineItemId)),
        detail.currency,
      ),
      lines,
      bookings: detail.bookings.map((booking) => describeBooking(booking, catalog)),
      edits: detail.edits.map(describeEdit),
      notice: request.query.done === 'edited' && !state.summary,
      summary: state.summary,
      issues: state.issues ?? {},
      values: request.method === 'POST' ? (request.body as Record<string, unknown>) : {},
    });
  }

  async function edit(request: FastifyRequest<OrderRoute>, reply: FastifyReply) {
    const staff = request.staff!;
    const { orderId } = request.params;
    if (orderIdIssues({ orderId })) return notFoundPage(request, reply);
    const formId = ctx.formIds.posted(request.body, ['order', orderId, 'edit']);
    const form = editFromForm(request.body);
    try {
      const { _csrf: _, ...sent } = request.body as Record<string, unknown>;
      await ctx.editOrder(
        {
          shopId: staff.shopId,
          actor: staffActor(staff),
          orderId,
          body: form.body(),
          requestId: request.id,
          idempotency: {
            shopId: staff.shopId,
            key: `admin-${formId}`,
            fingerprint: requestFingerprint('POST', request.routeOptions.url ?? request.url, sent),
            retentionHours: ctx.idempotencyRetentionHours,
          },
        },
        (data) => JSON.stringify(data),
      );
    } catch (error) {
      const labels = issueLabels(field(request.body, 'lineIds').split(' '));
      const shown = formIssues(error, labels, fieldOfIssue(form.lineOf));
      if (shown) return orderPage(request, reply, { status: 400, ...shown });
      // Refused as a whole (add-on off, order closed, a line fulfilled, the platform refusing or
      // down): said at the top, nothing changed. Another shop's order stays the 404 page.
      if (!(error instanceof AppError) || error.code === 'not_found') throw error;
      return orderPage(request, reply, {
        status: error.status,
        summary: IDEMPOTENCY_MESSAGES[error.code] ?? error.message,
      });
    }
    return reply.redirect(`/admin/orders/${orderId}?done=edited`, 303);
  }

  return async (app: FastifyInstance) => {
    app.addHook('preValidation', requireStaff);
    app.get<{ Querystring: Record<string, string> }>('/admin/orders', listPage);
    app.get<OrderRoute>('/admin/orders/:orderId', (request, reply) => orderPage(request, reply));
    app.post<OrderRoute>('/admin/orders/:orderId/edit', { preHandler: app.csrfProtection }, edit);
  };
}
