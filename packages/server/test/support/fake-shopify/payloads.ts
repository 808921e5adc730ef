import { gid, inventoryLevelGid } from './gid.js';
import type { FakeLevel, FakeLine, FakeOrder, FakeProduct, FakeRefund, FakeStore } from './state.js';

/**
 * Webhook bodies: the REST resource of each topic, as the webhook reference shows them
 * (https://shopify.dev/docs/api/webhooks?reference=toml, "orders/create", "orders/cancelled",
 * "orders/edited", "refunds/create", "inventory_levels/update", "products/update",
 * "app/uninstalled"; compliance topics: https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance).
 * Only the fields the fake has a value for; ids are numbers, money is a decimal string.
 */
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function moneySet(store: FakeStore, amount: string) {
  const bag = { amount, currency_code: store.shop.currency };
  return { shop_money: bag, presentment_money: bag };
}

export function lineItemPayload(store: FakeStore, line: FakeLine) {
  return {
    id: Number(line.id),
    admin_graphql_api_id: gid('LineItem', line.id),
    variant_id: line.variantId === null ? null : Number(line.variantId),
    product_id: line.productId === null ? null : Number(line.productId),
    title: line.title,
    variant_title: line.variantTitle,
    name: line.variantTitle ? `${line.title} - ${line.variantTitle}` : line.title,
    sku: line.sku,
    quantity: line.quantity,
    current_quantity: line.currentQuantity,
    fulfillable_quantity: line.currentQuantity,
    fulfillment_status: null,
    price: line.price,
    price_set: moneySet(store, line.price),
    properties: line.customAttributes.map((a) => ({ name: a.key, value: a.value })),
  };
}

export function refundPayload(store: FakeStore, refund: FakeRefund) {
  const order = store.orders.get(refund.orderId)!;
  return {
    id: Number(refund.id),
    admin_graphql_api_id: gid('Refund', refund.id),
    order_id: Number(refund.orderId),
    created_at: iso(refund.createdAt),
    processed_at: iso(refund.createdAt),
    note: refund.note,
    restock: refund.lines.some((l) => l.restockType !== 'NO_RESTOCK'),
    refund_line_items: refund.lines.map((l) => {
      const line = order.lines.find((candidate) => candidate.id === l.lineItemId)!;
      return {
        id: Number(l.id),
        line_item_id: Number(l.lineItemId),
        location_id: l.locationId === null ? null : Number(l.locationId),
        quantity: l.quantity,
        restock_type: l.restockType.toLowerCase(),
        line_item: lineItemPayload(store, line),
      };
    }),
    transactions: [],
    order_adjustments: [],
  };
}

export function orderPayload(store: FakeStore, order: FakeOrder) {
  return {
    id: Number(order.id),
    admin_graphql_api_id: gid('Order', order.id),
    name: order.name,
    order_number: Number(order.name.slice(1)),
    email: order.email,
    contact_email: order.email,
    customer: order.customer && {
      id: Number(order.customer.id),
      admin_graphql_api_id: gid('Customer', order.customer.id),
      first_name: order.customer.firstName,
      last_name: order.customer.lastName,
      email: order.customer.email,
    },
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
    processed_at: iso(order.createdAt),
    cancelled_at: iso(order.cancelledAt),
    cancel_reason: order.cancelReason?.toLowerCase() ?? null,
    closed_at: iso(order.closedAt),
    currency: store.shop.currency,
    financial_status: order.refundIds.length > 0 ? 'partially_refunded' : 'paid',
    location_id: Number(order.locationId),
    line_items: order.lines.map((line) => lineItemPayload(store, line)),
    refunds: order.refundIds.map((id) => refundPayload(store, store.refunds.get(id)!)),
  };
}

export function orderEditedPayload(
  store: FakeStore,
  order: FakeOrder,
  edit: {
    id: string;
    notifyCustomer: boolean;
    staffNote: string | null;
    additions: { id: string; delta: number }[];
    removals: { id: string; delta: number }[];
  },
) {
  return {
    order_edit: {
      id: Number(edit.id),
      app_id: null,
      created_at: iso(order.updatedAt),
      notify_customer: edit.notifyCustomer,
      order_id: Number(order.id),
      staff_note: edit.staffNote ?? '',
      user_id: null,
      line_items: {
        additions: edit.additions.map((a) => ({ id: Number(a.id), delta: a.delta })),
        removals: edit.removals.map((r) => ({ id: Number(r.id), delta: r.delta })),
      },
      discounts: { line_item: { additions: [], removals: [] } },
      shipping_lines: { additions: [], removals: [] },
    },
  };
}

export function inventoryLevelPayload(level: FakeLevel) {
  return {
    inventory_item_id: Number(level.inventoryItemId),
    location_id: Number(level.locationId),
    available: level.available,
    updated_at: iso(level.updatedAt),
    admin_graphql_api_id: inventoryLevelGid(level.locationId, level.inventoryItemId),
  };
}

export function productPayload(store: FakeStore, product: FakeProduct) {
  return {
    id: Number(product.id),
    admin_graphql_api_id: gid('Product', product.id),
    title: product.title,
    handle: product.handle,
    created_at: iso(product.createdAt),
    updated_at: iso(product.updatedAt),
    variants: product.variantIds.map((id) => {
      const variant = store.variants.get(id)!;
      return {
        id: Number(variant.id),
        admin_graphql_api_id: gid('ProductVariant', variant.id),
        product_id: Number(product.id),
        title: variant.title,
        price: variant.price,
        sku: variant.sku,
        inventory_item_id: Number(variant.inventoryItemId),
        created_at: iso(variant.createdAt),
        updated_at: iso(variant.updatedAt),
      };
    }),
  };
}

export function shopPayload(store: FakeStore, shopId: string) {
  return {
    id: Number(shopId),
    name: store.shop.name,
    domain: store.shop.domain,
    myshopify_domain: store.shop.domain,
    currency: store.shop.currency,
  };
}

export function compliancePayload(
  store: FakeStore,
  shopId: string,
  topic: 'customers/data_request' | 'customers/redact' | 'shop/redact',
  customer?: { id: string; email?: string; phone?: string; orderIds?: string[] },
) {
  const base = { shop_id: Number(shopId), shop_domain: store.shop.domain };
  if (topic === 'shop/redact') return base;
  const who = { id: Number(customer?.id ?? '1'), email: customer?.email ?? null, phone: customer?.phone ?? null };
  const orders = (customer?.orderIds ?? []).map(Number);
  return topic === 'customers/redact'
    ? { ...base, customer: who, orders_to_redact: orders }
    : { ...base, customer: who, orders_requested: orders, data_request: { id: Number(store.nextId()) } };
}
