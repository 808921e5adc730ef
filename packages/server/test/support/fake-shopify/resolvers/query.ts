import { connection, type PageArgs, type SortKey } from '../connection.js';
import { gidType, parseGid } from '../gid.js';
import { matchesQuery, matchesTerm, parseSearchQuery, type SearchTerm } from '../search-query.js';
import type { FakeOrder, FakeStore } from '../state.js';
import {
  adjustmentGroupView,
  calculatedOrderView,
  itemView,
  levelView,
  lineView,
  locationView,
  mapConnection,
  orderView,
  productView,
  refundView,
  shopView,
  variantView,
  webhookSubscriptionView,
} from '../views.js';
import type { FakeContext } from './context.js';

/** Any object the `node`/`nodes` queries can return, by gid (https://shopify.dev/docs/api/admin-graphql/2026-04/queries/node). */
function nodeById(store: FakeStore, id: string): unknown {
  const type = gidType(id);
  const numeric = type ? parseGid(id, type) : undefined;
  if (!type || !numeric) return null;
  switch (type) {
    case 'Location': {
      const location = store.locations.get(numeric);
      return location ? locationView(store, location) : null;
    }
    case 'InventoryItem':
      return itemView(store, numeric);
    case 'InventoryLevel': {
      const item = /[?&]inventory_item_id=(\d+)/.exec(id)?.[1];
      const level = item ? store.level(item, numeric) : undefined;
      return level ? levelView(store, level) : null;
    }
    case 'ProductVariant': {
      const variant = store.variants.get(numeric);
      return variant ? variantView(store, variant) : null;
    }
    case 'Product': {
      const product = store.products.get(numeric);
      return product ? productView(store, product) : null;
    }
    case 'Order': {
      const order = store.orders.get(numeric);
      return order ? orderView(store, order) : null;
    }
    case 'LineItem': {
      for (const order of store.orders.values()) {
        const line = order.lines.find((l) => l.id === numeric);
        if (line) return lineView(store, order, line);
      }
      return null;
    }
    case 'Refund': {
      const refund = store.refunds.get(numeric);
      return refund ? refundView(store, refund) : null;
    }
    case 'CalculatedOrder': {
      const edit = store.orderEdits.get(numeric);
      return edit ? calculatedOrderView(store, edit) : null;
    }
    case 'InventoryAdjustmentGroup': {
      const group = store.adjustmentGroups.get(numeric);
      return group ? adjustmentGroupView(store, group) : null;
    }
    case 'WebhookSubscription': {
      const subscription = store.webhookSubscriptions.get(numeric);
      return subscription ? webhookSubscriptionView(subscription) : null;
    }
    default:
      return null;
  }
}

function orderMatches(order: FakeOrder, term: SearchTerm): boolean {
  switch (term.field) {
    case 'updated_at':
      return matchesTerm(term, order.updatedAt, 'date');
    case 'created_at':
    case 'processed_at':
      return matchesTerm(term, order.createdAt, 'date');
    case 'id':
      return matchesTerm(term, Number(order.id), 'text') || term.value === order.id;
    case 'name':
      return matchesTerm(term, order.name, 'text');
    case 'status':
      if (term.value === 'any') return true;
      if (term.value === 'open') return order.closedAt === null;
      if (term.value === 'closed') return order.closedAt !== null;
      if (term.value === 'cancelled') return order.cancelledAt !== null;
      break;
  }
  throw new Error(`The fake Shopify cannot filter orders by ${term.field}:${term.value}`);
}

const ORDER_SORT: Record<string, (order: FakeOrder) => SortKey> = {
  UPDATED_AT: (o) => [o.updatedAt, Number(o.id)],
  CREATED_AT: (o) => [o.createdAt, Number(o.id)],
  PROCESSED_AT: (o) => [o.createdAt, Number(o.id)],
  ID: (o) => [Number(o.id)],
  ORDER_NUMBER: (o) => [Number(o.name.slice(1))],
};

/** The Query root: https://shopify.dev/docs/api/admin-graphql/2026-04 (queries named in schema.graphql). */
export function queryRoot(context: FakeContext) {
  const { store } = context;
  return {
    node: ({ id }: { id: string }) => nodeById(store, id),
    nodes: ({ ids }: { ids: string[] }) => ids.map((id) => nodeById(store, id)),
    shop: () => shopView(store),
    location: ({ id }: { id?: string | null }) => {
      const location = id ? store.locations.get(parseGid(id, 'Location') ?? '') : store.locations.values().next().value;
      return location ? locationView(store, location) : null;
    },
    locations: (args: PageArgs) =>
      mapConnection(
        connection([...store.locations.values()], args, (l) => [Number(l.id)]),
        (l) => locationView(store, l),
      ),
    inventoryItem: ({ id }: { id: string }) => (parseGid(id, 'InventoryItem') ? nodeById(store, id) : null),
    productVariant: ({ id }: { id: string }) => (parseGid(id, 'ProductVariant') ? nodeById(store, id) : null),
    product: ({ id }: { id: string }) => (parseGid(id, 'Product') ? nodeById(store, id) : null),
    order: ({ id }: { id: string }) => (parseGid(id, 'Order') ? nodeById(store, id) : null),
    productVariants: (args: PageArgs & { query?: string | null }) => {
      const groups = parseSearchQuery(args.query);
      const variants = [...store.variants.values()].filter((variant) =>
        matchesQuery(groups, (term) => {
          if (term.field === 'id') return matchesTerm(term, variant.id, 'text');
          if (term.field === 'product_id') return matchesTerm(term, variant.productId, 'text');
          throw new Error(`The fake Shopify cannot filter variants by ${term.field}`);
        }),
      );
      return mapConnection(
        connection(variants, args, (v) => [Number(v.id)]),
        (v) => variantView(store, v),
      );
    },
    orders: (args: PageArgs & { query?: string | null; sortKey: string }) => {
      const sortKey = ORDER_SORT[args.sortKey];
      if (!sortKey) throw new Error(`The fake Shopify cannot sort orders by ${args.sortKey}`);
      const groups = parseSearchQuery(args.query);
      const orders = [...store.orders.values()].filter((order) => matchesQuery(groups, (t) => orderMatches(order, t)));
      return mapConnection(connection(orders, args, sortKey), (o) => orderView(store, o));
    },
    webhookSubscriptions: (
      args: PageArgs & { topics?: string[] | null; uri?: string | null; format?: string | null },
    ) => {
      const subscriptions = [...store.webhookSubscriptions.values()]
        .filter((s) => !args.topics || args.topics.includes(s.topic))
        .filter((s) => !args.uri || s.uri === args.uri)
        .filter((s) => !args.format || s.format === args.format);
      return mapConnection(
        connection(subscriptions, args, (s) => [Number(s.id)]),
        webhookSubscriptionView,
      );
    },
  };
}
