import type { PlatformEventPayload, PlatformEventTopic } from '../../store/repositories/platform-events.js';
import { toGid } from './ids.js';

/**
 * What one webhook means to Tare: an inbox event, nothing (a topic or a level Tare does not
 * follow), or a payload that lacks what its topic must carry.
 */
export type WebhookMeaning =
  | { kind: 'event'; topic: PlatformEventTopic; payload: PlatformEventPayload }
  | { kind: 'ignored'; reason: string }
  | { kind: 'invalid'; message: string };

export interface TopicLookups {
  /** The variant a Shopify inventory item belongs to, from the inventory-item cache, if known. */
  variantOfInventoryItem(inventoryItemId: string): Promise<string | undefined>;
}

/**
 * The webhook topics Tare follows and how each maps onto the events of PRODUCT.md §14. Payloads
 * are the REST resources of the topic (https://shopify.dev/docs/api/webhooks/2026-04): an
 * order (`id`), an order edit (`order_edit.order_id`), a refund (`order_id`), an inventory level
 * (`inventory_item_id`, `location_id`), a product (`id`, `variants[].id`,
 * `variants[].inventory_item_id`); the compliance payloads
 * (https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance) name the shop and, for
 * customers, the customer. Events are triggers: processing reads the platform's truth again.
 */
const TOPICS: Record<string, (body: Body, lookups: TopicLookups) => Promise<WebhookMeaning> | WebhookMeaning> = {
  'orders/create': (body) => orderEvent('order_placed', body.admin_graphql_api_id ?? body.id),
  'orders/cancelled': (body) => orderEvent('order_cancelled', body.admin_graphql_api_id ?? body.id),
  'orders/edited': (body) => orderEvent('order_edited', asBody(body.order_edit).order_id),
  'refunds/create': (body) => orderEvent('refund_created', body.order_id),
  'inventory_levels/update': async (body, lookups) => {
    const inventoryItemId = shopifyId(body.inventory_item_id);
    const locationId = shopifyId(body.location_id);
    if (!inventoryItemId || !locationId) return invalid('inventory_item_id and location_id');
    const variantId = await lookups.variantOfInventoryItem(inventoryItemId);
    // An item Tare has never mapped is a level Tare does not manage.
    if (!variantId)
      return { kind: 'ignored', reason: `inventory item ${inventoryItemId} is not one of Tare's variants` };
    // The figure at the time of the change lets Tare recognise its own writes echoing back.
    const available = Number.isSafeInteger(body.available) ? (body.available as number) : undefined;
    return { kind: 'event', topic: 'stock_changed', payload: { locationId, variantId, available } };
  },
  'products/update': (body) => {
    const productId = shopifyId(body.admin_graphql_api_id ?? body.id);
    if (!productId) return invalid('id');
    const variants = Array.isArray(body.variants) ? body.variants.map(asBody) : [];
    const inventoryItems = variants.flatMap((variant) => {
      const variantId = shopifyId(variant.admin_graphql_api_id ?? variant.id);
      const item = shopifyId(variant.inventory_item_id);
      return variantId && item ? [{ variantId, inventoryItemId: toGid('InventoryItem', item) }] : [];
    });
    return { kind: 'event', topic: 'products_updated', payload: { productId, inventoryItems } };
  },
  // The payloads of these name a customer (e-mail, phone): Tare keeps none of it, not even in its inbox.
  'app/uninstalled': () => ({ kind: 'event', topic: 'app_uninstalled', payload: {} }),
  'customers/data_request': () => ({ kind: 'event', topic: 'customers_data_request', payload: {} }),
  'customers/redact': () => ({ kind: 'event', topic: 'customers_redact', payload: {} }),
  'shop/redact': () => ({ kind: 'event', topic: 'shop_redact', payload: {} }),
};

/** The topics the intake maps (for documentation and `tare platform webhooks`). */
export const FOLLOWED_TOPICS = Object.keys(TOPICS);

export async function meaningOfWebhook(topic: string, body: unknown, lookups: TopicLookups): Promise<WebhookMeaning> {
  const map = Object.hasOwn(TOPICS, topic) ? TOPICS[topic] : undefined;
  if (!map) return { kind: 'ignored', reason: `Tare does not follow the topic ${topic}` };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { kind: 'invalid', message: `a ${topic} payload is a JSON object` };
  }
  return map(body as Body, lookups);
}

type Body = Record<string, unknown>;

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
