import { gid, parseGid } from '../gid.js';
import { applyOrderEdit, newLine } from '../orders.js';
import { orderEditedPayload } from '../payloads.js';
import type { FakeLine, FakeOrderEdit } from '../state.js';
import { calculatedLineView, calculatedOrderView, orderView } from '../views.js';
import type { FakeContext } from './context.js';

/**
 * Order editing (https://shopify.dev/docs/apps/build/orders-fulfillment/order-management-apps/edit-orders):
 * orderEditBegin opens a calculated order, orderEditSetQuantity / orderEditAddVariant /
 * orderEditAddLineItemDiscount stage changes on it, and only orderEditCommit applies them to the
 * order (then Shopify sends orders/edited). These mutations answer problems as plain UserError
 * (field, message): no error codes exist for them. None of them can change a line's
 * customAttributes: the session's mutations are orderEditAddCustomItem, AddLineItemDiscount,
 * AddShippingLine, AddVariant, RemoveDiscount, RemoveShippingLine, SetQuantity, UpdateDiscount,
 * UpdateShippingLine (https://shopify.dev/docs/api/admin-graphql/2026-04/objects/OrderEditSession).
 * Staged discounts are recorded but do not change the fake's prices.
 */
const error = (field: string, message: string) => ({ field: [field], message });

function editOf(context: FakeContext, id: string): FakeOrderEdit | undefined {
  const calculated = parseGid(id, 'CalculatedOrder');
  if (calculated) return context.store.orderEdits.get(calculated);
  const session = parseGid(id, 'OrderEditSession');
  return [...context.store.orderEdits.values()].find((e) => e.sessionId === session);
}

function openEdit(context: FakeContext, id: string) {
  const edit = editOf(context, id);
  if (!edit) return { problem: [error('id', 'The calculated order does not exist.')] };
  if (edit.committed) return { problem: [error('id', 'The calculated order has already been committed.')] };
  return { edit, order: context.store.orders.get(edit.orderId)! };
}

function lineOf(edit: FakeOrderEdit, order: { lines: FakeLine[] }, lineItemId: string) {
  const id = parseGid(lineItemId, 'CalculatedLineItem');
  const existing = order.lines.find((l) => l.id === id);
  if (existing) return { line: existing, added: false };
  const added = edit.added.find((a) => a.line.id === id);
  return added ? { line: added.line, added: true } : undefined;
}

function answer(context: FakeContext, edit: FakeOrderEdit, extra: Record<string, unknown> = {}) {
  return {
    calculatedOrder: calculatedOrderView(context.store, edit),
    orderEditSession: { __typename: 'OrderEditSession', id: gid('OrderEditSession', edit.sessionId) },
    userErrors: [],
    ...extra,
  };
}

export function orderEditMutations(context: FakeContext) {
  const { store } = context;
  return {
    orderEditBegin: ({ id }: { id: string }) => {
      const order = store.orders.get(parseGid(id, 'Order') ?? '');
      if (!order)
        return {
          calculatedOrder: null,
          orderEditSession: null,
          userErrors: [error('id', 'The order does not exist.')],
        };
      if (order.cancelledAt !== null) {
        return {
          calculatedOrder: null,
          orderEditSession: null,
          userErrors: [error('id', 'A cancelled order cannot be edited.')],
        };
      }
      const edit: FakeOrderEdit = {
        id: store.nextId(),
        sessionId: store.nextId(),
        orderId: order.id,
        committed: false,
        quantities: new Map(),
        added: [],
        discounts: [],
      };
      store.orderEdits.set(edit.id, edit);
      return answer(context, edit);
    },

    orderEditSetQuantity: (args: { id: string; lineItemId: string; quantity: number; restock?: boolean | null }) => {
      const { edit, order, problem } = openEdit(context, args.id);
      if (problem) return { userErrors: problem };
      const found = lineOf(edit, order, args.lineItemId);
      if (!found) return { userErrors: [error('lineItemId', 'The line item does not exist on the calculated order.')] };
      if (args.quantity < 0) return { userErrors: [error('quantity', 'The quantity cannot be negative.')] };
      if (found.added) {
        found.line.quantity = args.quantity;
        found.line.currentQuantity = args.quantity;
        edit.added = edit.added.filter((a) => a.line.quantity > 0);
      } else {
        edit.quantities.set(found.line.id, { quantity: args.quantity, restock: args.restock ?? false });
      }
      return answer(context, edit, { calculatedLineItem: calculatedLineView(store, edit, found.line, found.added) });
    },

    orderEditAddVariant: (args: {
      id: string;
      variantId: string;
      locationId?: string | null;
      quantity: number;
      allowDuplicates: boolean;
    }) => {
      const { edit, order, problem } = openEdit(context, args.id);
      if (problem) return { userErrors: problem };
      const variantId = parseGid(args.variantId, 'ProductVariant');
      if (!variantId || !store.variants.has(variantId))
        return { userErrors: [error('variantId', 'The variant does not exist.')] };
      if (args.quantity <= 0) return { userErrors: [error('quantity', 'The quantity must be a positive value.')] };
      const locationId = args.locationId ? parseGid(args.locationId, 'Location') : order.locationId;
      if (!locationId || !store.locations.has(locationId))
        return { userErrors: [error('locationId', 'The location does not exist.')] };
      const onOrder = [...order.lines, ...edit.added.map((a) => a.line)].some((l) => l.variantId === variantId);
      if (onOrder && !args.allowDuplicates) {
        return {
          userErrors: [
            error('variantId', 'The variant is already on the order; pass allowDuplicates to add another line.'),
          ],
        };
      }
      const line = newLine(store, { variantId, quantity: args.quantity });
      edit.added.push({ line, locationId });
      return answer(context, edit, { calculatedLineItem: calculatedLineView(store, edit, line, true) });
    },

    orderEditAddLineItemDiscount: (args: {
      id: string;
      lineItemId: string;
      discount: {
        description?: string | null;
        fixedValue?: { amount: string; currencyCode: string } | null;
        percentValue?: number | null;
      };
    }) => {
      const { edit, order, problem } = openEdit(context, args.id);
      if (problem) return { userErrors: problem };
      const found = lineOf(edit, order, args.lineItemId);
      if (!found) return { userErrors: [error('lineItemId', 'The line item does not exist on the calculated order.')] };
      const { fixedValue, percentValue } = args.discount;
      if ((fixedValue == null) === (percentValue == null)) {
        return { userErrors: [error('discount', 'Give exactly one of fixedValue and percentValue.')] };
      }
      const staged = {
        id: store.nextId(),
        lineId: found.line.id,
        description: args.discount.description ?? '',
        value: fixedValue
          ? { amount: String(fixedValue.amount), currencyCode: fixedValue.currencyCode }
          : { percentage: percentValue! },
      };
      edit.discounts.push(staged);
      const value =
        'percentage' in staged.value
          ? { __typename: 'PricingPercentageValue', ...staged.value }
          : { __typename: 'MoneyV2', ...staged.value };
      return answer(context, edit, {
        calculatedLineItem: calculatedLineView(store, edit, found.line, found.added),
        addedDiscountStagedChange: {
          id: gid('OrderStagedChangeAddLineItemDiscount', staged.id),
          description: staged.description,
          value,
        },
      });
    },

    orderEditCommit: (args: { id: string; notifyCustomer?: boolean | null; staffNote?: string | null }) => {
      const { edit, order, problem } = openEdit(context, args.id);
      if (problem) return { order: null, successMessages: null, userErrors: problem };
      if (order.cancelledAt !== null)
        return { order: null, successMessages: null, userErrors: [error('id', 'A cancelled order cannot be edited.')] };
      const { additions, removals } = applyOrderEdit(store, order, edit);
      edit.committed = true;
      context.webhooks.emit(
        'orders/edited',
        orderEditedPayload(store, order, {
          id: edit.id,
          notifyCustomer: args.notifyCustomer ?? false,
          staffNote: args.staffNote ?? null,
          additions,
          removals,
        }),
      );
      return { order: orderView(store, order), successMessages: ['Order updated'], userErrors: [] };
    },
  };
}
