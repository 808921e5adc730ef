import type { FakeAttribute, FakeLine, FakeOrder, FakeRefund, FakeStore, RestockType } from './state.js';

/**
 * What happens to an order and to stock on Shopify, shared by the storefront and merchant actions
 * and by the order-editing mutations. An order takes its units off `available` at its location
 * into `committed`; a restocking cancel, refund or edit gives them back; `NO_RESTOCK` gives nothing
 * back (https://shopify.dev/docs/apps/build/orders-fulfillment/inventory-management-apps/quantities-states).
 * Every change bumps the order's `updatedAt`.
 */
export interface OrderLineInput {
  variantId: string;
  quantity: number;
  price?: string;
  customAttributes?: FakeAttribute[];
}

function newLine(store: FakeStore, input: OrderLineInput): FakeLine {
  const variant = store.variants.get(input.variantId);
  if (!variant) throw new Error(`The fake Shopify has no variant ${input.variantId}`);
  if (!Number.isInteger(input.quantity) || input.quantity <= 0)
    throw new Error(`A line's quantity is a positive integer`);
  const product = store.products.get(variant.productId)!;
  return {
    id: store.nextId(),
    variantId: variant.id,
    productId: product.id,
    title: product.title,
    variantTitle: variant.title,
    sku: variant.sku,
    quantity: input.quantity,
    currentQuantity: input.quantity,
    price: input.price ?? variant.price,
    customAttributes: input.customAttributes ?? [],
  };
}

/** Who checks out: an e-mail and/or a customer account; neither is a guest who gave nothing. */
export interface OrderCustomerInput {
  email?: string;
  customer?: { firstName?: string; lastName?: string; email?: string };
}

export function placeOrder(
  store: FakeStore,
  input: { locationId: string; lines: OrderLineInput[] } & OrderCustomerInput,
): FakeOrder {
  if (!store.locations.has(input.locationId)) throw new Error(`The fake Shopify has no location ${input.locationId}`);
  const at = store.now();
  const order: FakeOrder = {
    id: store.nextId(),
    name: store.nextOrderName(),
    email: input.email ?? input.customer?.email ?? null,
    customer: input.customer
      ? {
          id: store.nextId(),
          firstName: input.customer.firstName ?? null,
          lastName: input.customer.lastName ?? null,
          email: input.customer.email ?? input.email ?? null,
        }
      : null,
    locationId: input.locationId,
    fulfillmentOrderId: store.nextId(),
    createdAt: at,
    updatedAt: at,
    cancelledAt: null,
    cancelReason: null,
    closedAt: null,
    lines: input.lines.map((line) => newLine(store, line)),
    refundIds: [],
  };
  store.orders.set(order.id, order);
  for (const line of order.lines) {
    store.moveLevel(store.variantLevel(line.variantId!, order.locationId), {
      available: -line.quantity,
      committed: line.quantity,
    });
  }
  return order;
}

/** A refund: lines leave the order; restocked ones go back to `available` at their location. */
export function refundOrder(
  store: FakeStore,
  order: FakeOrder,
  lines: { lineItemId: string; quantity: number; restockType: RestockType; locationId?: string }[],
  note: string | null = null,
): FakeRefund {
  for (const requested of lines) {
    const line = order.lines.find((l) => l.id === requested.lineItemId);
    if (!line) throw new Error(`Order ${order.id} has no line ${requested.lineItemId}`);
    if (requested.quantity <= 0 || requested.quantity > line.currentQuantity) {
      throw new Error(`Line ${line.id} has ${line.currentQuantity} refundable, not ${requested.quantity}`);
    }
  }
  const refund: FakeRefund = {
    id: store.nextId(),
    orderId: order.id,
    createdAt: store.now(),
    note,
    lines: lines.map((l) => ({
      id: store.nextId(),
      lineItemId: l.lineItemId,
      quantity: l.quantity,
      restockType: l.restockType,
      locationId: l.restockType === 'NO_RESTOCK' ? null : (l.locationId ?? order.locationId),
    })),
  };
  for (const refunded of refund.lines) {
    const line = order.lines.find((l) => l.id === refunded.lineItemId)!;
    line.currentQuantity -= refunded.quantity;
    if (!line.variantId) continue;
    const level = store.variantLevel(line.variantId, order.locationId);
    // The units leave the order either way; only a restock puts them back on the shelf.
    store.moveLevel(level, { committed: -refunded.quantity });
    if (refunded.locationId)
      store.moveLevel(store.variantLevel(line.variantId, refunded.locationId), { available: refunded.quantity });
  }
  store.refunds.set(refund.id, refund);
  order.refundIds.push(refund.id);
  store.touchOrder(order);
  return refund;
}

/**
 * Cancels the order. Shopify refunds what is left on it with restock type `CANCEL` when the
 * merchant restocks, `NO_RESTOCK` otherwise (https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/orderCancel).
 */
export function cancelOrder(
  store: FakeStore,
  order: FakeOrder,
  options: { restock: boolean; reason?: string },
): FakeRefund | undefined {
  if (order.cancelledAt !== null) throw new Error(`Order ${order.id} is already cancelled`);
  const left = order.lines.filter((l) => l.currentQuantity > 0);
  const refund =
    left.length > 0
      ? refundOrder(
          store,
          order,
          left.map((l) => ({
            lineItemId: l.id,
            quantity: l.currentQuantity,
            restockType: options.restock ? ('CANCEL' as const) : ('NO_RESTOCK' as const),
          })),
        )
      : undefined;
  order.cancelledAt = store.now();
  order.cancelReason = options.reason ?? 'CUSTOMER';
  order.closedAt = order.cancelledAt;
  store.touchOrder(order);
  return refund;
}

export interface OrderEditChanges {
  quantities: Map<string, { quantity: number; restock: boolean }>;
  added: { line: FakeLine; locationId: string }[];
}

/** Applies an order edit at once (commit): quantities move stock at the order's location, added lines take theirs. */
export function applyOrderEdit(store: FakeStore, order: FakeOrder, changes: OrderEditChanges) {
  const additions: { id: string; delta: number }[] = [];
  const removals: { id: string; delta: number }[] = [];
  for (const [lineId, change] of changes.quantities) {
    const line = order.lines.find((l) => l.id === lineId)!;
    const delta = change.quantity - line.currentQuantity;
    if (delta === 0) continue;
    line.currentQuantity = change.quantity;
    if (delta > 0) additions.push({ id: line.id, delta });
    else removals.push({ id: line.id, delta: -delta });
    if (!line.variantId) continue;
    const level = store.variantLevel(line.variantId, order.locationId);
    if (delta > 0) store.moveLevel(level, { available: -delta, committed: delta });
    else store.moveLevel(level, { available: change.restock ? -delta : 0, committed: delta });
  }
  for (const { line, locationId } of changes.added) {
    order.lines.push(line);
    additions.push({ id: line.id, delta: line.quantity });
    store.moveLevel(store.variantLevel(line.variantId!, locationId), {
      available: -line.quantity,
      committed: line.quantity,
    });
  }
  store.touchOrder(order);
  return { additions, removals };
}

export { newLine };
