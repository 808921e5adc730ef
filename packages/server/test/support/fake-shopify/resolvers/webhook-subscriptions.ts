import { parseGid } from '../gid.js';
import { webhookSubscriptionView } from '../views.js';
import type { FakeContext } from './context.js';

/**
 * webhookSubscriptionCreate / webhookSubscriptionDelete
 * (https://shopify.dev/docs/api/admin-graphql/2026-04/mutations/webhookSubscriptionCreate): the
 * destination is `webhookSubscription.uri` (callbackUrl is deprecated); one subscription per topic
 * and address, a second is a UserError as on Shopify ("Address for this topic has already been taken").
 */
export function webhookSubscriptionMutations(context: FakeContext) {
  const { store } = context;
  return {
    webhookSubscriptionCreate: (args: {
      topic: string;
      webhookSubscription: {
        uri?: string | null;
        format?: 'JSON' | 'XML' | null;
        filter?: string | null;
        includeFields?: string[] | null;
      };
    }) => {
      const { uri, format, filter, includeFields } = args.webhookSubscription;
      if (!uri || !/^https?:\/\/\S+$/.test(uri)) {
        return {
          webhookSubscription: null,
          userErrors: [{ field: ['webhookSubscription', 'uri'], message: 'Address is invalid' }],
        };
      }
      const taken = [...store.webhookSubscriptions.values()].some((s) => s.topic === args.topic && s.uri === uri);
      if (taken) {
        return {
          webhookSubscription: null,
          userErrors: [
            { field: ['webhookSubscription', 'uri'], message: 'Address for this topic has already been taken' },
          ],
        };
      }
      const at = store.now();
      const subscription = {
        id: store.nextId(),
        topic: args.topic,
        uri,
        format: format ?? 'JSON',
        filter: filter ?? null,
        includeFields: includeFields ?? [],
        createdAt: at,
        updatedAt: at,
      };
      store.webhookSubscriptions.set(subscription.id, subscription);
      return { webhookSubscription: webhookSubscriptionView(subscription), userErrors: [] };
    },
    webhookSubscriptionDelete: ({ id }: { id: string }) => {
      const numeric = parseGid(id, 'WebhookSubscription');
      if (!numeric || !store.webhookSubscriptions.delete(numeric)) {
        return {
          deletedWebhookSubscriptionId: null,
          userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }],
        };
      }
      return { deletedWebhookSubscriptionId: id, userErrors: [] };
    },
  };
}
