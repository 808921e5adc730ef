import type { ShopifyAdmin } from './admin-client.js';
import { ShopifyRequestError } from './admin-client.js';

/**
 * The topics Tare subscribes a store to, as `WebhookSubscriptionTopic` values (2026-04).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/enums/WebhookSubscriptionTopic
 * The compliance topics (customers/data_request, customers/redact, shop/redact) are not among
 * them: Shopify takes those from the app's configuration only, never through the API
 * (https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance).
 */
export const SUBSCRIBED_TOPICS = [
  'ORDERS_CREATE',
  'ORDERS_CANCELLED',
  'ORDERS_EDITED',
  'REFUNDS_CREATE',
  'INVENTORY_LEVELS_UPDATE',
  'PRODUCTS_UPDATE',
  'APP_UNINSTALLED',
] as const;
export type SubscribedTopic = (typeof SUBSCRIBED_TOPICS)[number];

/**
 * The store's shop-scoped subscriptions for Tare's topics (at most 250 subscriptions a page;
 * Tare makes one per topic and address).
 * https://shopify.dev/docs/api/admin-graphql/2026-04/queries/webhookSubscriptions (first, after, topics)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/objects/WebhookSubscription (id, topic, uri)
 */
export const WEBHOOK_SUBSCRIPTIONS = /* GraphQL */ `
  query TareWebhookSubscriptions($topics: [WebhookSubscriptionTopic!], $after: String) {
    webhookSubscriptions(first: 250, topics: $topics, after: $after) {
      nodes {
        id
        topic
        uri
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/**
 * One subscription: JSON deliveries of `topic` to `uri` over HTTPS.
 * https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/webhookSubscriptionCreate
 * https://shopify.dev/docs/api/admin-graphql/2026-04/input-objects/WebhookSubscriptionInput (uri, format)
 * https://shopify.dev/docs/api/admin-graphql/2026-04/payloads/WebhookSubscriptionCreatePayload (webhookSubscription, userErrors)
 */
export const WEBHOOK_SUBSCRIPTION_CREATE = /* GraphQL */ `
  mutation TareWebhookSubscriptionCreate(
    $topic: WebhookSubscriptionTopic!
    $webhookSubscription: WebhookSubscriptionInput!
  ) {
    webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
      webhookSubscription {
        id
        topic
        uri
      }
      userErrors {
        field
        message
      }
    }
  }
`;

interface SubscriptionsPage {
  webhookSubscriptions: {
    nodes: { id: string; topic: string; uri: string }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

interface CreateAnswer {
  webhookSubscriptionCreate: {
    webhookSubscription: { id: string; topic: string; uri: string } | null;
    userErrors: { field: string[] | null; message: string }[];
  };
}

export interface SubscriptionOutcome {
  topic: SubscribedTopic;
  outcome: 'subscribed' | 'already subscribed';
  id: string;
}

/**
 * Subscribes the store to every topic Tare follows at `address`, skipping those already
 * subscribed there: running it twice subscribes nothing the second time. A topic Shopify refuses
 * (userErrors) stops with its message; the topics before it stay subscribed.
 */
export async function subscribeWebhooks(admin: ShopifyAdmin, address: string): Promise<SubscriptionOutcome[]> {
  const existing = new Map<string, string>();
  let after: string | null = null;
  do {
    const { data }: { data: SubscriptionsPage } = await admin.request<SubscriptionsPage>(WEBHOOK_SUBSCRIPTIONS, {
      topics: [...SUBSCRIBED_TOPICS],
      after,
    });
    for (const node of data.webhookSubscriptions.nodes) {
      if (node.uri === address) existing.set(node.topic, node.id);
    }
    after = data.webhookSubscriptions.pageInfo.hasNextPage ? data.webhookSubscriptions.pageInfo.endCursor : null;
  } while (after);

  const outcomes: SubscriptionOutcome[] = [];
  for (const topic of SUBSCRIBED_TOPICS) {
    const id = existing.get(topic);
    if (id) {
      outcomes.push({ topic, outcome: 'already subscribed', id });
      continue;
    }
    const { data } = await admin.request<CreateAnswer>(WEBHOOK_SUBSCRIPTION_CREATE, {
      topic,
      webhookSubscription: { uri: address, format: 'JSON' },
    });
    const { webhookSubscription, userErrors } = data.webhookSubscriptionCreate;
    if (userErrors.length || !webhookSubscription) {
      const reasons = userErrors.map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message));
      throw new ShopifyRequestError(
        `Shopify refused to subscribe ${topic}: ${reasons.join('; ') || 'no subscription'}`,
      );
    }
    outcomes.push({ topic, outcome: 'subscribed', id: webhookSubscription.id });
  }
  return outcomes;
}
