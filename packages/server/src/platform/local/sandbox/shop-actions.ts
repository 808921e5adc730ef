import type { SandboxCancelBody, SandboxCheckoutBody, SandboxRefundBody, ValidationIssue } from '@tare/contracts';
import { AppError, errors } from '../../../errors.js';
import type { Queryable } from '../../../store/db.js';
import { locationExists } from '../../../store/repositories/locations.js';
import { lockOrderBookings, shareShopOrders } from '../../../store/repositories/order-bookings.js';
import type { OrderCustomer, PlatformOrder, PlatformRefund } from '../../gateway.js';
import { moveLocalLevels } from '../levels-repository.js';
import { readLocalOrder, touchOrder, upsertLineItem, upsertOrder } from '../orders-repository.js';
import { readCart } from './carts.js';
import { deleteCart } from './carts-repository.js';
import type { Emit } from './event-delivery.js';
import { firstLocationId, fulfilLines, insertRefund, nextPlatformIds } from './orders-sandbox-repository.js';

// The merchant's and the customer's actions on the embedded platform (PRODUCT.md §15). Each
// runs in the caller's transaction and emits its event in it, so Tare hears of a change exactly
// when it is committed. The platform's own whole units move as Shopify's do: a sale takes the
// line's quantity off, a restock gives it back; Tare follows through the event (§14).

/** A line's whole units the platform moves, for lines of a variant (custom lines have no stock). */
type UnitMove = { locationId: string; variantId: string; by: number };

/** The order, locked for this transaction; another shop's order is as unknown (404). */
export async function lockOrder(tx: Queryable, shopId: string, orderId: string): Promise<PlatformOrder> {
  // Tare's order lock first, then the order, as Tare's inbox and order edits take them.
  await lockOrderBookings(tx, shopId, orderId);
  const order = await readLocalOrder(tx, shopId, orderId, true);
  if (!order) throw errors.notFound('order', orderId);
  return order;
}

/** Units of each line refunded so far, whether restocked or not. */
export function refundedByLine(order: PlatformOrder): Map<string, number> {
  const refunded = new Map<string, number>();
  for (const refund of order.refunds)
    for (const line of refund.lines)
      refunded.set(line.lineItemId, (refunded.get(line.lineItemId) ?? 0) + line.quantity);
  return refunded;
}

/**
 * Turns the cart into an open order at `locationId` (the shop's first location by default):
 * every line keeps its price and properties, the platform takes each line's quantity off its
 * level, the cart is consumed, and *order placed* is emitted.
 */
export async function checkout(
  tx: Queryable,
  emit: Emit,
  shopId: string,
  token: string,
  body: SandboxCheckoutBody,
): Promise<PlatformOrder> {
  // The new order moves the platform's stock: never while a stock notice reads it (§14).
  await shareShopOrders(tx, shopId);
  const { lines } = await readCart(tx, shopId, token, true);
  if (lines.length === 0) throw errors.validation([{ path: '/items', message: 'the cart has no items to check out' }]);
  const locationId = body.locationId ?? (await firstLocationId(tx, shopId));
  if (locationId === undefined) {
    throw new AppError('unprocessable', 'The shop has no location to sell from; import one first.', null);
  }
  if (body.locationId !== undefined && !(await locationExists(tx, shopId, locationId))) {
    throw errors.notFound('location', locationId);
  }
  const [orderId, ...lineIds] = await nextPlatformIds(tx, lines.length + 1);
  await upsertOrder(tx, shopId, { id: orderId!, status: 'open', locationId, customer: checkoutCustomer(body) });
  for (const [position, line] of lines.entries()) {
    await upsertLineItem(tx, shopId, {
      orderId: orderId!,
      id: lineIds[position]!,
      position,
      productId: line.productId,
      variantId: line.variantId,
      quantity: line.quantity,
      price: line.price,
      fulfilled: false,
      properties: line.properties,
    });
  }
  await moveLocalLevels(
    tx,
    shopId,
    lines.map((l) => ({ locationId, variantId: l.variantId, by: -l.quantity })),
  );
  await deleteCart(tx, shopId, token);
  await emit(shopId, 'order_placed', { orderId: orderId! });
  return (await readLocalOrder(tx, shopId, orderId!, false))!;
}

/** What the checkout was told of its customer, trimmed; null for a guest who gave neither. */
function checkoutCustomer(body: SandboxCheckoutBody): OrderCustomer | null {
  const name = body.customer?.name?.trim() || null;
  const email = body.customer?.email?.trim() || null;
  return name === null && email === null ? null : { name, email };
}

/**
 * Cancels an open order and emits *order cancelled*. With `restock`, every unit not yet
 * refunded goes back on the platform's levels, recorded as Shopify does: a refund whose lines
 * have restock type `cancel`. A unit refunded without restock stays out (the customer kept it).
 */
export async function cancelOrder(
  tx: Queryable,
  emit: Emit,
  shopId: string,
  orderId: string,
  body: SandboxCancelBody,
): Promise<PlatformOrder> {
  const order = await lockOrder(tx, shopId, orderId);
  if (order.status !== 'open') {
    throw new AppError('unprocessable', `Order ${orderId} is ${order.status} and cannot be cancelled.`, {
      status: order.status,
    });
  }
  await upsertOrder(tx, shopId, { id: order.id, status: 'cancelled', locationId: order.locationId });
  if (body.restock) {
    const refunded = refundedByLine(order);
    const left = order.lineItems
      .map((line) => ({ line, quantity: line.quantity - (refunded.get(line.id) ?? 0) }))
      .filter(({ quantity }) => quantity > 0);
    if (left.length) {
      const [refundId] = await nextPlatformIds(tx, 1);
      await insertRefund(tx, shopId, orderId, {
        id: refundId!,
        lines: left.map(({ line, quantity }) => ({ lineItemId: line.id, quantity, restockType: 'cancel' })),
      });
      await moveLocalLevels(tx, shopId, restockMoves(order, left));
    }
  }
  await emit(shopId, 'order_cancelled', { orderId });
  return (await readLocalOrder(tx, shopId, orderId, false))!;
}

/**
 * Refunds units of an order's lines and emits *refund created*. Each line may be refunded up to
 * the units not refunded yet; `return` and `cancel` put the units back on the platform's level,
 * `no_restock` does not. All or nothing: a bad line is a 400 naming it.
 */
export async function refundOrder(
  tx: Queryable,
  emit: Emit,
  shopId: string,
  orderId: string,
  body: SandboxRefundBody,
): Promise<{ refund: PlatformRefund; order: PlatformOrder }> {
  const order = await lockOrder(tx, shopId, orderId);
  const refunded = refundedByLine(order);
  const issues: ValidationIssue[] = [];
  const seen = new Map<string, number>();
  body.lines.forEach((entry, i) => {
    const line = order.lineItems.find((l) => l.id === entry.lineItemId);
    const first = seen.get(entry.lineItemId);
    seen.set(entry.lineItemId, first ?? i);
    if (!line) {
      issues.push({ path: `/lines/${i}/lineItemId`, message: `order ${orderId} has no line '${entry.lineItemId}'` });
    } else if (first !== undefined) {
      issues.push({
        path: `/lines/${i}/lineItemId`,
        message: `line '${entry.lineItemId}' is already at /lines/${first}`,
      });
    } else {
      const left = line.quantity - (refunded.get(line.id) ?? 0);
      if (entry.quantity > left) {
        issues.push({
          path: `/lines/${i}/quantity`,
          message: `line '${line.id}' has ${left} unit(s) left to refund, not ${entry.quantity}`,
        });
      }
    }
  });
  if (issues.length) throw errors.validation(issues, 'body');

  const [refundId] = await nextPlatformIds(tx, 1);
  const refund: PlatformRefund = { id: refundId!, lines: body.lines.map((l) => ({ ...l })) };
  await insertRefund(tx, shopId, orderId, refund);
  const restocked = body.lines
    .filter((l) => l.restockType !== 'no_restock')
    .map((l) => ({ line: order.lineItems.find((line) => line.id === l.lineItemId)!, quantity: l.quantity }));
  await moveLocalLevels(tx, shopId, restockMoves(order, restocked));
  // The platform lists orders changed since a moment: a refund changes its order.
  await touchOrder(tx, shopId, orderId);
  await emit(shopId, 'refund_created', { orderId });
  return { refund, order: (await readLocalOrder(tx, shopId, orderId, false))! };
}

/** Marks every line of an open order fulfilled and emits *order updated*. */
export async function fulfilOrder(tx: Queryable, emit: Emit, shopId: string, orderId: string): Promise<PlatformOrder> {
  const order = await lockOrder(tx, shopId, orderId);
  if (order.status !== 'open') {
    throw new AppError('unprocessable', `Order ${orderId} is ${order.status} and cannot be fulfilled.`, {
      status: order.status,
    });
  }
  if (order.lineItems.every((l) => l.fulfilled)) {
    throw new AppError('unprocessable', `Order ${orderId} is already fulfilled.`, null);
  }
  await fulfilLines(tx, shopId, orderId);
  await touchOrder(tx, shopId, orderId);
  await emit(shopId, 'order_updated', { orderId });
  return (await readLocalOrder(tx, shopId, orderId, false))!;
}

function restockMoves(
  order: PlatformOrder,
  lines: { line: PlatformOrder['lineItems'][number]; quantity: number }[],
): UnitMove[] {
  return lines
    .filter(({ line }) => line.variantId !== null)
    .map(({ line, quantity }) => ({ locationId: order.locationId, variantId: line.variantId!, by: quantity }));
}
