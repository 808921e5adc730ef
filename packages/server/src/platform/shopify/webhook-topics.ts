import type { PlatformEventPayload, PlatformEventTopic } from '../../store/repositories/platform-events.js';
import { toGid } from './ids.js';

/**
 * What one webhook means to Tare: an inbox event, nothing (a topic or a level Tare does not
 * follow), or a payload that lacks what its topic must carry.
 */
export type WebhookMeaning =
  | { kind: 'event'; topic: PlatformEventTopic; payload: PlatformEventPayload }
  | { kind: 'ignored'; reason: string }
  | { kind: 'invalid'; message: string }
  /** The signed body names another store than the (unsigned) shop-domain header. */
  | { kind: 'foreign'; message: string };

export interface TopicLookups {
  /** The variant a Shopify inventory item belongs to, from the inventory-item cache, if known. */
  variantOfInventoryItem(inventoryItemId: string): Promise<string | undefined>;
}

type TopicMap = (body: Body, lookups: TopicLookups) => Promise<WebhookMeaning> | WebhookMeaning;

interface TopicRule {
  map: TopicMap;
  /**
   * The body's field naming the store (`name.myshopify.com`), where the payload has one. The
   * signature covers the body only, so this is what binds a delivery to its store: it must name
   * the store of the shop-domain header, or the delivery is another store's, replayed.
   */
  storeField?: 'shop_domain' | 'myshopify_domain';
  /** Stops or deletes something for good: honoured only when fresh (see webhook-freshness.ts). */
  destructive?: true;
}

/**
 * The webhook topics Tare follows and how each maps onto the events of PRODUCT.md §14. Payloads
 * are the REST resources of the topic (https://shopify.dev/docs/api/webhooks/2026-04): an
 * order (`id`), an order edit (`order_edit.order_id`), a refund (`order_id`), an inventory level
 * (`inventory_item_id`, `location_id`), a product (`id`, `variants[].id`,
 * `variants[].inventory_item_id`), and for app/uninstalled the shop (`myshopify_domain`); the
 * compliance payloads (https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance)
 * name the shop (`shop_id`, `shop_domain`) and, for customers, the customer. Events are
 * triggers: processing reads the platform's truth again, with the shop's own token.
 *
 * Order, refund, level and product payloads name no store: a body replayed under another
 * store's header names ids of its own store (Shopify's ids are global), which the other shop's
 * platform does not have, so its events find nothing there. `shop_id` is Shopify's number for the
 * store, which Tare is never told, so `shop_domain` is the field compared.
 */
const TOPICS: Record<string, TopicRule> = {
  'orders/create': { map: (body) => orderEvent('order_placed', body.admin_graphql_api_id ?? body.id) },
  'orders/cancelled': { map: (body) => orderEvent('order_cancelled', body.admin_graphql_api_id ?? body.id) },
  'orders/edited': { map: (body) => orderEvent('order_edited', asBody(body.order_edit).order_id) },
  'refunds/create': { map: (body) => orderEvent('refund_created', body.order_id) },
  'inventory_levels/update': { map: levelEvent },
  'products/update': { map: productEvent },
  // The payloads of these name a customer (e-mail, phone): Tare keeps none of it, not even in its
  // inbox; of customers/redact it keeps the ids of the orders whose customer it must forget.
  'app/uninstalled': {
    map: () => ({ kind: 'event', topic: 'app_uninstalled', payload: {} }),
    storeField: 'myshopify_domain',
    destructive: true,
  },
  'customers/data_request': {
    map: () => ({ kind: 'event', topic: 'customers_data_request', payload: {} }),
    storeField: 'shop_domain',
  },
  'customers/redact': {
    map: (body) => ({ kind: 'event', topic: 'customers_redact', payload: { orderIds: ordersToRedact(body) } }),
    storeField: 'shop_domain',
  },
  'shop/redact': {
    map: () => ({ kind: 'event', topic: 'shop_redact', payload: {} }),
    storeField: 'shop_domain',
    destructive: true,
  },
};

/** The topics the intake maps (for documentation and `tare platform webhooks`). */
export const FOLLOWED_TOPICS = Object.keys(TOPICS);

const ruleOf = (topic: string) => (Object.hasOwn(TOPICS, topic) ? TOPICS[topic] : undefined);

/** Whether the topic stops or deletes something for good (app/uninstalled, shop/redact). */
export const isDestructiveTopic = (topic: string) => ruleOf(topic)?.destructive === true;

/** What the delivery means for the shop connected to `store` (the shop-domain header's, lower case). */
export async function meaningOfWebhook(
  topic: string,
  body: unknown,
  store: string,
  lookups: TopicLookups,
): Promise<WebhookMeaning> {
  const rule = ruleOf(topic);
  if (!rule) return { kind: 'ignored', reason: `Tare does not follow the topic ${topic}` };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { kind: 'invalid', message: `a ${topic} payload is a JSON object` };
  }
  if (rule.storeField) {
    const named = (body as Body)[rule.storeField];
    if (typeof named !== 'string' || !named.trim()) return invalid(rule.storeField);
    if (named.trim().toLowerCase() !== store) {
      return { kind: 'foreign', message: `its ${rule.storeField} is not the store of its shop-domain header` };
    }
  }
  return rule.map(body as Body, lookups);
}

async function levelEvent(body: Body, lookups: TopicLookups): Promise<WebhookMeaning> {
  const inventoryItemId = shopifyId(body.inventory_item_id);
  const locationId = shopifyId(body.location_id);
  if (!inventoryItemId || !locationId) return invalid('inventory_item_id and location_id');
  const variantId = await lookups.variantOfInventoryItem(inventoryItemId);
  // An item Tare has never mapped is a level Tare does not manage.
  if (!variantId) return { kind: 'ignored', reason: `inventory item ${inventoryItemId} is not one of Tare's variants` };
  // The figure at the time of the change lets Tare recognise its own writes echoing back.
  const available = Number.isSafeInteger(body.available) ? (body.available as number) : undefined;
  return { kind: 'event', topic: 'stock_changed', payload: { locationId, variantId, available } };
}

function productEvent(body: Body): WebhookMeaning {
  const productId = shopifyId(body.admin_graphql_api_id ?? body.id);
  if (!productId) return invalid('id');
  const variants = Array.isArray(body.variants) ? body.variants.map(asBody) : [];
  const inventoryItems = variants.flatMap((variant) => {
    const variantId = shopifyId(variant.admin_graphql_api_id ?? variant.id);
    const item = shopifyId(variant.inventory_item_id);
    return variantId && item ? [{ variantId, inventoryItemId: toGid('InventoryItem', item) }] : [];
  });
  return { kind: 'event', topic: 'products_updated', payload: { productId, inventoryItems } };
}

type Body = Record<string, unknown>;

/** The orders a customers/redact names (`orders_to_redact`), as Tare's ids; what is not an id is left out. */
function ordersToRedact(body: Body): string[] {
  const ids = Array.isArray(body.orders_to_redact) ? body.orders_to_redact.map(shopifyId) : [];
  return [...new Set(ids.filter((id): id is string => id !== undefined))];
}

const asBody = (value: unknown): Body =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};

function orderEvent(topic: PlatformEventTopic, id: unknown): WebhookMeaning {
  const orderId = shopifyId(id);
  return orderId ? { kind: 'event', topic, payload: { orderId } } : invalid('the order id');
}

const invalid = (what: string): WebhookMeaning => ({ kind: 'invalid', message: `the payload lacks ${what}` });

/**
 * Tare's id for a Shopify id in a payload: a positive integer (a JSON number, or the digits of a
 * long one kept as text) or a global id (`gid://shopify/Order/7` → "7").
 */
export function shopifyId(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const digits = /^gid:\/\/shopify\/\w+\/(\d{1,20})(\?.*)?$/.exec(value)?.[1] ?? value;
  return /^[1-9]\d{0,19}$/.test(digits) ? digits : undefined;
}
