import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { connection, type PageArgs } from './connection.js';
import { gid, inventoryLevelGid } from './gid.js';
import type {
  FakeAdjustmentGroup,
  FakeCustomer,
  FakeLevel,
  FakeLine,
  FakeLocation,
  FakeMetafield,
  FakeOrder,
  FakeOrderEdit,
  FakeProduct,
  FakeRefund,
  FakeStore,
  FakeVariant,
  FakeWebhookSubscription,
} from './state.js';

/**
 * The GraphQL objects the schema returns, built on demand from the store. graphql-js's default
 * resolver reads each field as a property, calling it with the field's arguments when it is a
 * function, so connections and argument-taking fields are functions here. `__typename` lets the
 * Node interface resolve.
 */
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function money(store: FakeStore, amount: string) {
  const bag = { amount, currencyCode: store.shop.currency };
  return { shopMoney: bag, presentmentMoney: bag };
}

export function locationView(store: FakeStore, location: FakeLocation) {
  return {
    __typename: 'Location',
    id: gid('Location', location.id),
    legacyResourceId: location.id,
    name: location.name,
    isActive: true,
    inventoryLevel: ({ inventoryItemId }: { inventoryItemId: string }) => {
      const level = store.level(inventoryItemId.replace(/^gid:\/\/shopify\/InventoryItem\//, ''), location.id);
      return level ? levelView(store, level) : null;
    },
  };
}

export function levelView(store: FakeStore, level: FakeLevel) {
  const quantityOf: Record<string, number> = {
    available: level.available,
    committed: level.committed,
    on_hand: level.available + level.committed,
  };
  return {
    __typename: 'InventoryLevel',
    id: inventoryLevelGid(level.locationId, level.inventoryItemId),
    item: () => itemView(store, level.inventoryItemId),
    location: () => locationView(store, store.locations.get(level.locationId)!),
    createdAt: iso(level.createdAt),
    updatedAt: iso(level.updatedAt),
    // Quantity states the fake does not model (incoming, reserved, damaged…) read as 0.
    quantities: ({ names }: { names: string[] }) =>
      names.map((name) => ({
        __typename: 'InventoryQuantity',
        id: `gid://shopify/InventoryQuantity/${level.locationId}?inventory_item_id=${level.inventoryItemId}&name=${name}`,
        name,
        quantity: quantityOf[name] ?? 0,
        updatedAt: iso(level.updatedAt),
      })),
  };
}

export function itemView(store: FakeStore, inventoryItemId: string) {
  const variant = store.variantOfItem(inventoryItemId);
  if (!variant) return null;
  const levels = () => [...store.levels.values()].filter((l) => l.inventoryItemId === inventoryItemId);
  return {
    __typename: 'InventoryItem',
    id: gid('InventoryItem', inventoryItemId),
    legacyResourceId: inventoryItemId,
    sku: variant.sku,
    tracked: true,
    variant: () => variantView(store, variant),
    inventoryLevel: ({ locationId }: { locationId: string }) => {
      const level = store.level(inventoryItemId, locationId.replace(/^gid:\/\/shopify\/Location\//, ''));
      return level ? levelView(store, level) : null;
    },
    inventoryLevels: (args: PageArgs) =>
      mapConnection(
        connection(levels(), args, (l) => [Number(l.locationId)]),
        (l) => levelView(store, l),
      ),
  };
}

export function variantView(store: FakeStore, variant: FakeVariant) {
  const product = store.products.get(variant.productId)!;
  return {
    __typename: 'ProductVariant',
    id: gid('ProductVariant', variant.id),
    legacyResourceId: variant.id,
    title: variant.title,
    displayName: `${product.title} - ${variant.title}`,
    sku: variant.sku,
    price: variant.price,
    compareAtPrice: variant.compareAtPrice ?? null,
    showUnitPrice: variant.showUnitPrice ?? false,
    unitPriceMeasurement: variant.unitPriceMeasurement ?? null,
    metafield: ({ namespace, key }: { namespace?: string | null; key: string }) => {
      const metafield = store.metafield(gid('ProductVariant', variant.id), namespace ?? '$app', key);
      return metafield ? metafieldView(store, metafield) : null;
    },
    inventoryQuantity: [...store.levels.values()]
      .filter((l) => l.inventoryItemId === variant.inventoryItemId)
      .reduce((sum, l) => sum + l.available, 0),
    inventoryItem: () => itemView(store, variant.inventoryItemId),
    product: () => productView(store, product),
    createdAt: iso(variant.createdAt),
    updatedAt: iso(variant.updatedAt),
  };
}

export function productView(store: FakeStore, product: FakeProduct) {
  const variants = () => product.variantIds.map((id) => store.variants.get(id)!).filter(Boolean);
  return {
    __typename: 'Product',
    id: gid('Product', product.id),
    legacyResourceId: product.id,
    title: product.title,
    handle: product.handle,
    createdAt: iso(product.createdAt),
    updatedAt: iso(product.updatedAt),
    variants: (args: PageArgs) =>
      mapConnection(
        connection(variants(), args, (v) => [Number(v.id)]),
        (v) => variantView(store, v),
      ),
  };
}

export function lineView(store: FakeStore, order: FakeOrder, line: FakeLine) {
  const variant = line.variantId ? store.variants.get(line.variantId) : undefined;
  const product = line.productId ? store.products.get(line.productId) : undefined;
  return {
    __typename: 'LineItem',
    id: gid('LineItem', line.id),
    name: line.variantTitle ? `${line.title} - ${line.variantTitle}` : line.title,
    title: line.title,
    variantTitle: line.variantTitle,
    sku: line.sku,
    quantity: line.quantity,
    currentQuantity: line.currentQuantity,
    refundableQuantity: Math.max(0, line.currentQuantity),
    // The fake never fulfils: every unit still on the order is unfulfilled.
    unfulfilledQuantity: line.currentQuantity,
    restockable: true,
    variant: variant ? () => variantView(store, variant) : null,
    product: product ? () => productView(store, product) : null,
    customAttributes: line.customAttributes,
    originalUnitPriceSet: money(store, line.price),
    discountedUnitPriceSet: money(store, line.price),
  };
}

/**
 * A field of protected customer data (level 2: names, e-mails): its value, or Shopify's refusal
 * when the app may not read it, an error at the field's path with the rest of the answer intact.
 * https://shopify.dev/docs/apps/launch/protected-customer-data
 */
function protectedField<T>(store: FakeStore, value: T): T {
  if (store.protectedCustomerData) return value;
  throw new GraphQLError(
    'This app is not approved to access the Customer object. See https://partners.shopify.com for more details.',
    { extensions: { code: 'ACCESS_DENIED' } },
  );
}

/** https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Customer (displayName: the full name, else the e-mail) */
function customerView(customer: FakeCustomer) {
  const fullName = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  return {
    __typename: 'Customer',
    id: gid('Customer', customer.id),
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    displayName: fullName || customer.email || '',
  };
}

export function orderView(store: FakeStore, order: FakeOrder) {
  const location = store.locations.get(order.locationId)!;
  const refunds = () => order.refundIds.map((id) => store.refunds.get(id)!);
  const fullyRefunded = order.lines.every((l) => l.currentQuantity === 0) && order.refundIds.length > 0;
  return {
    __typename: 'Order',
    id: gid('Order', order.id),
    legacyResourceId: order.id,
    name: order.name,
    email: () => protectedField(store, order.email),
    customer: () => protectedField(store, order.customer && customerView(order.customer)),
    createdAt: iso(order.createdAt),
    updatedAt: iso(order.updatedAt),
    processedAt: iso(order.createdAt),
    cancelledAt: iso(order.cancelledAt),
    cancelReason: order.cancelReason,
    closed: order.closedAt !== null,
    closedAt: iso(order.closedAt),
    currencyCode: store.shop.currency,
    displayFinancialStatus: fullyRefunded ? 'REFUNDED' : order.refundIds.length > 0 ? 'PARTIALLY_REFUNDED' : 'PAID',
    note: null,
    test: false,
    retailLocation: locationView(store, location),
    lineItems: (args: PageArgs) =>
      mapConnection(
        connection(order.lines, args, (l) => [Number(l.id)]),
        (l) => lineView(store, order, l),
      ),
    refunds: ({ first }: { first?: number | null }) =>
      refunds()
        .slice(0, first ?? undefined)
        .map((r) => refundView(store, r)),
    fulfillmentOrders: (args: PageArgs) =>
      mapConnection(
        connection([order], args, () => [Number(order.fulfillmentOrderId)]),
        () => ({
          __typename: 'FulfillmentOrder',
          id: gid('FulfillmentOrder', order.fulfillmentOrderId),
          status: order.cancelledAt !== null ? 'CLOSED' : 'OPEN',
          assignedLocation: { name: location.name, location: locationView(store, location) },
          createdAt: iso(order.createdAt),
          updatedAt: iso(order.updatedAt),
        }),
      ),
  };
}

export function refundView(store: FakeStore, refund: FakeRefund) {
  const order = store.orders.get(refund.orderId)!;
  return {
    __typename: 'Refund',
    id: gid('Refund', refund.id),
    legacyResourceId: refund.id,
    createdAt: iso(refund.createdAt),
    updatedAt: iso(refund.createdAt),
    note: refund.note,
    order: () => orderView(store, order),
    refundLineItems: (args: PageArgs) =>
      mapConnection(
        connection(refund.lines, args, (l) => [Number(l.id)]),
        (l) => {
          const line = order.lines.find((candidate) => candidate.id === l.lineItemId)!;
          const location = l.locationId ? store.locations.get(l.locationId) : undefined;
          return {
            id: gid('RefundLineItem', l.id),
            lineItem: lineView(store, order, line),
            quantity: l.quantity,
            restockType: l.restockType,
            restocked: l.restockType === 'RETURN' || l.restockType === 'CANCEL' || l.restockType === 'LEGACY_RESTOCK',
            location: location ? locationView(store, location) : null,
            priceSet: money(store, line.price),
          };
        },
      ),
  };
}

export function adjustmentGroupView(store: FakeStore, group: FakeAdjustmentGroup) {
  return {
    __typename: 'InventoryAdjustmentGroup',
    id: gid('InventoryAdjustmentGroup', group.id),
    createdAt: iso(group.createdAt),
    reason: group.reason,
    referenceDocumentUri: group.referenceDocumentUri,
    changes: (filter: {
      inventoryItemIds?: string[] | null;
      locationIds?: string[] | null;
      quantityNames?: string[] | null;
    }) =>
      group.changes
        .filter(
          (c) => !filter.inventoryItemIds || filter.inventoryItemIds.includes(gid('InventoryItem', c.inventoryItemId)),
        )
        .filter((c) => !filter.locationIds || filter.locationIds.includes(gid('Location', c.locationId)))
        .filter((c) => !filter.quantityNames || filter.quantityNames.includes(c.name))
        .map((c) => ({
          name: c.name,
          delta: c.delta,
          quantityAfterChange: c.quantityAfterChange,
          ledgerDocumentUri: null,
          item: () => itemView(store, c.inventoryItemId),
          location: () => locationView(store, store.locations.get(c.locationId)!),
        })),
  };
}

export function calculatedOrderView(store: FakeStore, edit: FakeOrderEdit) {
  const order = store.orders.get(edit.orderId)!;
  const lines = () => [...order.lines.map((l) => calculatedLineView(store, edit, l, false)), ...addedLines()];
  const addedLines = () => edit.added.map((a) => calculatedLineView(store, edit, a.line, true));
  return {
    __typename: 'CalculatedOrder',
    id: gid('CalculatedOrder', edit.id),
    committed: edit.committed,
    originalOrder: () => orderView(store, order),
    lineItems: (args: PageArgs) => connection(lines(), args, (l) => [Number(l.numericId)]),
    addedLineItems: (args: PageArgs) => connection(addedLines(), args, (l) => [Number(l.numericId)]),
  };
}

export function calculatedLineView(store: FakeStore, edit: FakeOrderEdit, line: FakeLine, added: boolean) {
  const staged = edit.quantities.get(line.id);
  const variant = line.variantId ? store.variants.get(line.variantId) : undefined;
  return {
    numericId: line.id,
    id: gid('CalculatedLineItem', line.id),
    title: line.title,
    variantTitle: line.variantTitle,
    sku: line.sku,
    quantity: staged?.quantity ?? line.currentQuantity,
    editableQuantity: staged?.quantity ?? line.currentQuantity,
    editableQuantityBeforeChanges: added ? 0 : line.currentQuantity,
    restockable: !added,
    restocking: Boolean(staged?.restock && staged.quantity < line.currentQuantity),
    hasStagedLineItemDiscount: edit.discounts.some((d) => d.lineId === line.id),
    variant: variant ? () => variantView(store, variant) : null,
    customAttributes: line.customAttributes,
    originalUnitPriceSet: money(store, line.price),
    discountedUnitPriceSet: money(store, line.price),
  };
}

export function webhookSubscriptionView(subscription: FakeWebhookSubscription) {
  return {
    __typename: 'WebhookSubscription',
    id: gid('WebhookSubscription', subscription.id),
    legacyResourceId: subscription.id,
    topic: subscription.topic,
    uri: subscription.uri,
    format: subscription.format,
    filter: subscription.filter,
    includeFields: subscription.includeFields,
    createdAt: iso(subscription.createdAt),
    updatedAt: iso(subscription.updatedAt),
  };
}

/** A connection whose nodes are mapped to views, edges and cursors kept. */
export function mapConnection<T, U>(page: ReturnType<typeof connection<T>>, toView: (item: T) => U) {
  const edges = page.edges.map((e) => ({ cursor: e.cursor, node: toView(e.node) }));
  return { edges, nodes: edges.map((e) => e.node), pageInfo: page.pageInfo };
}

/** The shop's number in its gid (`gid://shopify/Shop/1`): the fake has one shop. */
export const SHOP_NUMBER = '1';

export function shopView(store: FakeStore) {
  return {
    __typename: 'Shop',
    id: gid('Shop', SHOP_NUMBER),
    name: store.shop.name,
    myshopifyDomain: store.shop.domain,
    currencyCode: store.shop.currency,
    features: { cartTransform: { eligibleOperations: { ...store.cartTransform } } },
    metafield: ({ namespace, key }: { namespace?: string | null; key: string }) => {
      const metafield = store.metafield(gid('Shop', SHOP_NUMBER), namespace ?? '$app', key);
      return metafield ? metafieldView(store, metafield) : null;
    },
  };
}

export function metafieldView(_store: FakeStore, metafield: FakeMetafield) {
  return {
    __typename: 'Metafield',
    id: gid('Metafield', metafield.id),
    legacyResourceId: metafield.id,
    namespace: metafield.namespace,
    key: metafield.key,
    type: metafield.type,
    value: metafield.value,
    jsonValue: () => (metafield.type === 'json' ? JSON.parse(metafield.value) : metafield.value),
    compareDigest: createHash('sha256').update(metafield.value).digest('hex'),
    ownerType: metafield.ownerId.includes('/ProductVariant/') ? 'PRODUCTVARIANT' : 'SHOP',
    createdAt: iso(metafield.createdAt),
    updatedAt: iso(metafield.updatedAt),
  };
}
