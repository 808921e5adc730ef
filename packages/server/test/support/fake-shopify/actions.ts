import {
  applyOrderEdit,
  cancelOrder,
  newLine,
  type OrderCustomerInput,
  type OrderLineInput,
  placeOrder,
  refundOrder,
} from './orders.js';
import {
  compliancePayload,
  orderEditedPayload,
  orderPayload,
  productPayload,
  refundPayload,
  shopPayload,
} from './payloads.js';
import type { FakeAttribute, FakeStore, RestockType } from './state.js';
import type { WebhookDispatcher } from './webhooks.js';

/**
 * What customers and the merchant do on Shopify without Tare: each changes the fake's state as
 * Shopify would and sends the webhooks Shopify sends for it. (Stock moved by these actions also
 * sends inventory_levels/update, from the level listener set up in index.ts.)
 */
export interface PlaceOrderLine {
  variantId: string;
  quantity: number;
  price?: string;
  /** Line item properties: `[{ key, value }]` or `{ key: value }`. */
  customAttributes?: FakeAttribute[] | Record<string, string>;
}

const attributes = (input: PlaceOrderLine['customAttributes']): FakeAttribute[] =>
  Array.isArray(input) ? input : Object.entries(input ?? {}).map(([key, value]) => ({ key, value }));

const restockType = (value: string) => value.toUpperCase() as RestockType;

function orderOf(store: FakeStore, id: string) {
  const order = store.orders.get(id);
  if (!order) throw new Error(`The fake Shopify has no order ${id}`);
  return order;
}

export function createActions(
  store: FakeStore,
  webhooks: WebhookDispatcher,
  hooks: { shopId: string; merchantStock: (fn: () => void) => void; uninstalled: () => void },
) {
  return {
    /** A customer checks out at a location: stock is committed, orders/create is sent. Returns the order id. */
    placeOrder(input: { locationId: string; lines: PlaceOrderLine[] } & OrderCustomerInput): string {
      const lines: OrderLineInput[] = input.lines.map((l) => ({
        ...l,
        customAttributes: attributes(l.customAttributes),
      }));
      const order = placeOrder(store, { ...input, lines });
      webhooks.emit('orders/create', orderPayload(store, order));
      return order.id;
    },

    /** The merchant cancels; what is left is refunded (restock type cancel or no_restock): orders/cancelled and refunds/create. */
    cancelOrder(id: string, options: { restock: boolean; reason?: string }): void {
      const order = orderOf(store, id);
      const refund = cancelOrder(store, order, options);
      webhooks.emit('orders/cancelled', orderPayload(store, order));
      if (refund) webhooks.emit('refunds/create', refundPayload(store, refund));
    },

    /** The merchant refunds lines; `return`/`cancel` restock them, `no_restock` does not. Returns the refund id. */
    refund(
      id: string,
      input: {
        lines: { lineItemId: string; quantity: number; restockType: string; locationId?: string }[];
        note?: string;
      },
    ): string {
      const order = orderOf(store, id);
      const lines = input.lines.map((l) => ({ ...l, restockType: restockType(l.restockType) }));
      const refund = refundOrder(store, order, lines, input.note ?? null);
      webhooks.emit('refunds/create', refundPayload(store, refund));
      return refund.id;
    },

    /** The merchant types a new `available` in the admin: inventory_levels/update. */
    merchantSetsStock(locationId: string, variantId: string, available: number): void {
      const level = store.variantLevel(variantId, locationId);
      hooks.merchantStock(() => store.moveLevel(level, { available: available - level.available }));
    },

    /** The merchant edits the order in Shopify's admin (not through Tare): orders/edited. */
    editOrderOnShopify(
      id: string,
      changes: {
        setQuantity?: { lineItemId: string; quantity: number; restock?: boolean }[];
        addVariants?: { variantId: string; quantity: number; locationId?: string }[];
        notifyCustomer?: boolean;
        staffNote?: string;
      },
    ): void {
      const order = orderOf(store, id);
      const quantities = new Map(
        (changes.setQuantity ?? []).map((c) => [c.lineItemId, { quantity: c.quantity, restock: c.restock ?? false }]),
      );
      for (const lineId of quantities.keys()) {
        if (!order.lines.some((l) => l.id === lineId)) throw new Error(`Order ${id} has no line ${lineId}`);
      }
      const added = (changes.addVariants ?? []).map((a) => ({
        line: newLine(store, { variantId: a.variantId, quantity: a.quantity }),
        locationId: a.locationId ?? order.locationId,
      }));
      const { additions, removals } = applyOrderEdit(store, order, { quantities, added });
      webhooks.emit(
        'orders/edited',
        orderEditedPayload(store, order, {
          id: store.nextId(),
          notifyCustomer: changes.notifyCustomer ?? false,
          staffNote: changes.staffNote ?? null,
          additions,
          removals,
        }),
      );
    },

    /** The merchant changes a product (title, variants added or changed): products/update. */
    updateProduct(
      id: string,
      changes: {
        title?: string;
        variants?: { id: string; title?: string; price?: string; sku?: string; inventoryItemId?: string }[];
      },
    ): void {
      const product = store.products.get(id);
      if (!product) throw new Error(`The fake Shopify has no product ${id}`);
      const at = store.now();
      if (changes.title !== undefined) product.title = changes.title;
      for (const change of changes.variants ?? []) {
        const existing = store.variants.get(change.id);
        if (existing) {
          Object.assign(existing, {
            title: change.title ?? existing.title,
            price: change.price ?? existing.price,
            sku: change.sku ?? existing.sku,
            updatedAt: at,
          });
          continue;
        }
        store.variants.set(change.id, {
          id: change.id,
          productId: id,
          title: change.title ?? change.id,
          price: change.price ?? '0.00',
          sku: change.sku ?? null,
          inventoryItemId: change.inventoryItemId ?? store.nextId(),
          createdAt: at,
          updatedAt: at,
        });
        product.variantIds.push(change.id);
      }
      product.updatedAt = at;
      webhooks.emit('products/update', productPayload(store, product));
    },

    /** The merchant uninstalls the app: app/uninstalled, then the token and the subscriptions are gone. */
    uninstall(): void {
      webhooks.emit('app/uninstalled', shopPayload(store, hooks.shopId));
      store.webhookSubscriptions.clear();
      hooks.uninstalled();
    },

    /** The compliance topics, delivered to `webhooks.address` (they are subscribed in the app's configuration). */
    customersDataRequest(customer: { id: string; email?: string; phone?: string; orderIds?: string[] }): void {
      webhooks.emit(
        'customers/data_request',
        compliancePayload(store, hooks.shopId, 'customers/data_request', customer),
      );
    },
    customersRedact(customer: { id: string; email?: string; phone?: string; orderIds?: string[] }): void {
      webhooks.emit('customers/redact', compliancePayload(store, hooks.shopId, 'customers/redact', customer));
    },
    shopRedact(): void {
      webhooks.emit('shop/redact', compliancePayload(store, hooks.shopId, 'shop/redact'));
    },
  };
}
