import type { FakeShopify } from './index.js';

/**
 * Shopify down until the returned function is called: every request is answered with `status`
 * and nothing is applied, like `fake.faults.serverErrors(n)` without a count to run out (an
 * outage lasts until it ends, not for a number of requests). Kept out of faults.ts: it only
 * replaces the plan's `takeServerError` for a while, so the counted faults work as before.
 */
export function takeShopifyDown(fake: FakeShopify, status = 503): () => void {
  const faults = fake.faults;
  const counted = faults.takeServerError;
  faults.takeServerError = () => status;
  return () => {
    faults.takeServerError = counted;
  };
}
