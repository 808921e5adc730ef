import { isDeepStrictEqual } from 'node:util';
import { Dec } from '../../domain/decimal.js';
import { AppError } from '../../errors.js';
import type { LineItemChange, PlatformLineItem, PlatformOrder } from '../gateway.js';
import type { ShopifyAdmin } from './admin-client.js';
import { toGid } from './ids.js';
import { ORDER_EDIT_BEGIN, ORDER_EDIT_COMMIT, ORDER_EDIT_SET_QUANTITY } from './operations.js';

/** One staged quantity: Shopify's figure for the line (its current units, refunds left out). */
interface QuantityStep {
  lineItemId: string;
  quantity: number;
}

interface UserErrors {
  userErrors: { field: string[] | null; message: string }[];
}

/**
 * Applies the changes as one Shopify order edit: `orderEditBegin`, one `orderEditSetQuantity`
 * per changed line (restocking what it removes), then `orderEditCommit` with `notifyCustomer`
 * and `staffNote`.
 *
 * Shopify's order editing changes a line's quantity (0 removes it), adds variants and custom
 * items, and discounts lines added in the same edit; no mutation rewrites a line's custom
 * attributes or its unit price, and a variant added by `orderEditAddVariant` carries no custom
 * attributes (https://shopify.dev/docs/api/admin-graphql/2026-04/objects/OrderEditSession lists
 * every edit mutation; https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/orderEditAddVariant;
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/OrderStagedChangeAddLineItemDiscount).
 * So a change of a line's properties (its `_svc_data` measurement), variant or price is refused
 * with 422 `unprocessable` before the edit begins. Anything Shopify refuses once the edit has
 * begun is refused the same way and the calculated order is never committed, which abandons it:
 * nothing is half applied.
 */
export async function editShopifyOrder(
  admin: ShopifyAdmin,
  order: PlatformOrder,
  changes: LineItemChange[],
  options: { notifyCustomer: boolean; staffNote?: string },
): Promise<void> {
  const steps = changes.flatMap((change) => quantityStep(order, change));
  if (steps.length === 0) return;
  const begin = await admin.request<{ orderEditBegin: UserErrors & { calculatedOrder: { id: string } | null } }>(
    ORDER_EDIT_BEGIN,
    { id: toGid('Order', order.id) },
  );
  const calculatedOrder = begin.data.orderEditBegin.calculatedOrder;
  refuseOn(begin.data.orderEditBegin, `Shopify cannot edit order ${order.id}`);
  if (!calculatedOrder) throw refusal(`Shopify cannot edit order ${order.id}: no calculated order was returned.`);
  for (const step of steps) {
    const staged = await admin.request<{ orderEditSetQuantity: UserErrors }>(ORDER_EDIT_SET_QUANTITY, {
      id: calculatedOrder.id,
      // A calculated line keeps its line's number (gid://shopify/LineItem/N → CalculatedLineItem/N),
      // as Shopify's own examples and integrations show; a wrong guess is refused by Shopify below.
      lineItemId: toGid('CalculatedLineItem', step.lineItemId),
      quantity: step.quantity,
      restock: true,
    });
    refuseOn(staged.data.orderEditSetQuantity, `Shopify cannot set line ${step.lineItemId} to ${step.quantity}`);
  }
  const commit = await admin.request<{ orderEditCommit: UserErrors }>(ORDER_EDIT_COMMIT, {
    id: calculatedOrder.id,
    notifyCustomer: options.notifyCustomer,
    staffNote: options.staffNote ?? null,
  });
  refuseOn(commit.data.orderEditCommit, `Shopify did not commit the edit of order ${order.id}`);
}

/** What one change asks of Shopify, or a 422 naming what Shopify's order editing cannot change. */
function quantityStep(order: PlatformOrder, change: LineItemChange): QuantityStep[] {
  const line = order.lineItems.find((l) => l.id === change.lineItemId);
  if (!line) throw refusal(`Order ${order.id} has no line ${change.lineItemId} on Shopify.`, change.lineItemId);
  if (line.fulfilled) {
    throw refusal(`Line ${line.id} is fulfilled; Shopify edits only unfulfilled items.`, line.id);
  }
  // The port's quantity counts refunded units (booked back by the refund); Shopify's does not.
  const refunded = order.refunds
    .flatMap((r) => r.lines)
    .filter((l) => l.lineItemId === line.id)
    .reduce((sum, l) => sum + l.quantity, 0);
  if (change.remove) return [{ lineItemId: line.id, quantity: 0 }];
  if (change.variantId !== line.variantId) {
    throw refusal(
      `Shopify's order editing cannot move line ${line.id} to variant ${change.variantId ?? 'none'}: ` +
        'a line added in an order edit carries no properties, so its measurement (_svc_data) would be lost.',
      line.id,
    );
  }
  const changed = changedProperties(line.properties, change.properties);
  if (changed.length) {
    throw refusal(
      `Shopify's order editing cannot rewrite the properties of line ${line.id} (${changed.join(', ')}): ` +
        'its measurement cannot be changed on Shopify; change its quantity or remove it instead.',
      line.id,
    );
  }
  if (!new Dec(change.price).eq(new Dec(line.price))) {
    throw refusal(
      `Shopify's order editing keeps the unit price line ${line.id} was sold at (${line.price}); ` +
        `it cannot be set to ${change.price}.`,
      line.id,
    );
  }
  if (change.quantity === line.quantity) return [];
  if (change.quantity < refunded) {
    throw refusal(`Line ${line.id} has ${refunded} refunded units; its quantity cannot go below them.`, line.id);
  }
  return [{ lineItemId: line.id, quantity: change.quantity - refunded }];
}

/**
 * Names of the properties that differ. Values that are JSON on both sides compare as JSON, so
 * `_svc_data` written back with other spacing or key order is no change.
 */
function changedProperties(before: PlatformLineItem['properties'], after: PlatformLineItem['properties']): string[] {
  const names = new Set([...before.map((p) => p.name), ...after.map((p) => p.name)]);
  return [...names].filter((name) => {
    const a = before.find((p) => p.name === name)?.value;
    const b = after.find((p) => p.name === name)?.value;
    return a === undefined || b === undefined || !sameValue(a, b);
  });
}

function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return isDeepStrictEqual(JSON.parse(a), JSON.parse(b));
  } catch {
    return false;
  }
}

function refuseOn(payload: UserErrors, what: string): void {
  if (payload.userErrors.length) {
    throw refusal(`${what}: ${payload.userErrors.map((e) => e.message).join('; ')}.`);
  }
}

function refusal(message: string, lineItemId?: string): AppError {
  return new AppError('unprocessable', message, lineItemId ? { lineItemId } : null);
}
