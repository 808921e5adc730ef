import type { FaultPlan } from '../faults.js';
import type { FakeStore } from '../state.js';
import type { WebhookDispatcher } from '../webhooks.js';

/** What every resolver of one request sees. */
export interface FakeContext {
  store: FakeStore;
  faults: FaultPlan;
  webhooks: WebhookDispatcher;
  /** Idempotency keys whose first request is still running. */
  keysInFlight: Set<string>;
  /** Marks the request as one Shopify would refuse: the test that sent it fails. */
  reject(reason: string): void;
}
