import type { OrderCustomer, PlatformLineItem, PlatformOrder, PlatformRefund, RestockType } from '../gateway.js';
import { type ShopifyAdmin, ShopifyRequestError, ShopifyUnauthorizedError } from './admin-client.js';
import { numericId, toGid } from './ids.js';
import { ORDER_CUSTOMER, ORDERS_CHANGED_SINCE, READ_ORDER, REFUND_LINE_ITEMS } from './operations.js';

interface Page<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

interface ShopifyLineItem {
  id: string;
  quantity: number;
  currentQuantity: number;
  unfulfilledQuantity: number;
  variant: { id: string } | null;
  product: { id: string } | null;
  customAttributes: { key: string; value: string | null }[];
  originalUnitPriceSet: { shopMoney: { amount: string } };
}

interface ShopifyOrder {
  id: string;
  name: string;
  createdAt: string;
  cancelledAt: string | null;
  closed: boolean;
  retailLocation: { id: string } | null;
  fulfillmentOrders: { nodes: { assignedLocation: { location: { id: string } | null } }[] };
  lineItems: Page<ShopifyLineItem>;
  refunds: { id: string }[];
}

type ShopifyRestockType = 'RETURN' | 'CANCEL' | 'NO_RESTOCK' | 'LEGACY_RESTOCK';

interface RefundLines {
  node: {
    refundLineItems: Page<{ lineItem: { id: string }; quantity: number; restockType: ShopifyRestockType }>;
  } | null;
}

/**
 * https://shopify.dev/docs/api/admin-graphql/2026-04/enums/RefundLineItemRestockType: `LEGACY_RESTOCK`
 * ("restocked, without specifically being identified as a return or cancelation", refunds made
 * before the distinction) gave the units back, as a return does.
 */
const RESTOCK_TYPES: Record<ShopifyRestockType, RestockType> = {
  RETURN: 'return',
  CANCEL: 'cancel',
  NO_RESTOCK: 'no_restock',
  LEGACY_RESTOCK: 'return',
};

/**
 * The order as the gateway port describes it, read whole (every page of its lines and of each
 * refund's lines); undefined when Shopify has no such order.
 *
 * - A line's `quantity` is what was sold after edits: Shopify's `currentQuantity` leaves out
 *   refunded and removed units, and the port counts refunds separately (their restock is booked
 *   from `refunds`), so the refunded units are added back. A line whose every unit was removed
 *   by an edit (nothing sold, nothing refunded) is left out, as the sandbox deletes it.
 * - `locationId` is where Shopify takes the stock: the retail location of a point-of-sale order,
 *   else the location its first fulfillment order is assigned to (Order.location was removed in
 *   2024-07; https://shopify.dev/changelog/graphql-admin-api-location-field-removed-from-the-order-object).
 *   An order split across locations is booked at the first; "" when Shopify names none.
 * - `fulfilled` is true once any unit of the line was fulfilled (Shopify edits only unfulfilled
 *   units).
 */
export async function readShopifyOrder(
  admin: ShopifyAdmin,
  orderId: string,
  options: { customer?: boolean } = {},
): Promise<PlatformOrder | undefined> {
  const id = toGid('Order', orderId);
  let head: ShopifyOrder | null = null;
  const lines = await allPages(async (lineItemsAfter) => {
    const { data } = await admin.request<{ order: ShopifyOrder | null }>(READ_ORDER, { id, lineItemsAfter });
    head ??= data.order;
    return data.order?.lineItems;
  });
  if (!head) return undefined;
  const order: ShopifyOrder = head;

  const refunds: PlatformRefund[] = [];
  for (const refund of order.refunds)
    refunds.push({ id: numericId(refund.id), lines: await refundLines(admin, refund.id) });
  const refunded = new Map<string, number>();
  for (const line of refunds.flatMap((r) => r.lines)) {
    refunded.set(line.lineItemId, (refunded.get(line.lineItemId) ?? 0) + line.quantity);
  }
  return {
    id: numericId(order.id),
    name: order.name,
    ...(options.customer ? { customer: await readShopifyOrderCustomer(admin, order.id) } : {}),
    status: order.cancelledAt ? 'cancelled' : order.closed ? 'closed' : 'open',
    locationId: orderLocation(order),
    createdAt: new Date(order.createdAt),
    lineItems: lines.flatMap((line) => {
      const lineItem = toLineItem(line, refunded.get(numericId(line.id)) ?? 0);
      return lineItem.quantity > 0 || refunded.has(lineItem.id) ? [lineItem] : [];
    }),
    refunds,
  };
}

/**
 * Who placed the order (ORDER_CUSTOMER): its customer's display name and the order's e-mail;
 * null for a guest who gave neither, and null when Shopify withholds them from the app (an
 * answer in GraphQL errors, not a refused token: the shop's sync goes on).
 */
async function readShopifyOrderCustomer(admin: ShopifyAdmin, id: string): Promise<OrderCustomer | null> {
  try {
    const { data } = await admin.request<{
      order: { email: string | null; customer: { displayName: string } | null } | null;
    }>(ORDER_CUSTOMER, { id });
    const name = data.order?.customer?.displayName?.trim() || null;
    const email = data.order?.email?.trim() || null;
    return name === null && email === null ? null : { name, email };
  } catch (error) {
    // An HTTP 401/403 carries its status: that is the token, and stops the sync as any call's would.
    const withheld =
      error instanceof ShopifyRequestError || (error instanceof ShopifyUnauthorizedError && error.status === undefined);
    if (withheld) return null;
    throw error;
  }
}

/**
 * Ids of the orders created or changed since `since` (all when null), least recently updated
 * first. `>=` rather than `>`: an order updated in the same second as the watermark is read
 * again rather than missed (reading an order twice books nothing twice).
 * https://shopify.dev/docs/api/usage/search-syntax (updated_at range, quoted date)
 */
export async function shopifyOrdersChangedSince(admin: ShopifyAdmin, since: Date | null): Promise<string[]> {
  const query = since ? `updated_at:>='${since.toISOString()}'` : null;
  const orders = await allPages(async (after) => {
    const { data } = await admin.request<{ orders: Page<{ id: string }> }>(ORDERS_CHANGED_SINCE, { query, after });
    return data.orders;
  });
  return orders.map((o) => numericId(o.id));
}

async function refundLines(admin: ShopifyAdmin, refundId: string): Promise<PlatformRefund['lines']> {
  const lines = await allPages(async (after) => {
    const { data } = await admin.request<RefundLines>(REFUND_LINE_ITEMS, { id: refundId, after });
    return data.node?.refundLineItems;
  });
  return lines.map((line) => ({
    lineItemId: numericId(line.lineItem.id),
    quantity: line.quantity,
    restockType: RESTOCK_TYPES[line.restockType],
  }));
}

/** Every node of a connection, reading page after page until Shopify says there is no next one. */
async function allPages<T>(readPage: (after: string | null) => Promise<Page<T> | null | undefined>): Promise<T[]> {
  const nodes: T[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Page<T> | null | undefined = await readPage(after);
    if (!page) return nodes;
    nodes.push(...page.nodes);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return nodes;
    after = page.pageInfo.endCursor;
  }
}

function toLineItem(line: ShopifyLineItem, refunded: number): PlatformLineItem {
  return {
    id: numericId(line.id),
    productId: line.product ? numericId(line.product.id) : null,
    variantId: line.variant ? numericId(line.variant.id) : null,
    quantity: line.currentQuantity + refunded,
    // Shopify's Decimal scalar is exact text; kept as such.
    price: line.originalUnitPriceSet.shopMoney.amount,
    fulfilled: line.unfulfilledQuantity < line.currentQuantity,
    properties: line.customAttributes.map((a) => ({ name: a.key, value: a.value ?? '' })),
  };
}

function orderLocation(order: ShopifyOrder): string {
  const assigned = order.fulfillmentOrders.nodes.find((f) => f.assignedLocation.location)?.assignedLocation.location;
  const location = order.retailLocation ?? assigned;
  return location ? numericId(location.id) : '';
}
