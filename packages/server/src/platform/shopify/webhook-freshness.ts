/**
 * Shopify retries a delivery that was not answered 2xx 8 times over 4 hours, each time with the
 * payload and `X-Shopify-Triggered-At` of the moment it was triggered, and tells apps to judge
 * staleness by that header (https://shopify.dev/changelog/updates-to-webhook-retry-mechanism).
 * So no delivery of Shopify's is triggered longer ago than this.
 */
const DELIVERY_SPAN_MS = 4 * 60 * 60_000;
/** How far Shopify's clock and ours may disagree, either way. */
const CLOCK_SKEW_MS = 5 * 60_000;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export type Freshness = { kind: 'fresh' } | { kind: 'stale'; reason: string } | { kind: 'invalid'; message: string };

/**
 * Whether a delivery triggered at `triggeredAt` (the header's ISO 8601 instant, nanoseconds
 * allowed) may be one of Shopify's at `now`: triggered at most DELIVERY_SPAN_MS ago and not in
 * the future, each with CLOCK_SKEW_MS to spare. The header is not signed: this refuses a
 * destructive delivery replayed with its original headers, while the signed binding of a body to
 * its store is the body's own (see webhook-topics.ts).
 *
 * @example freshness('2026-04-01T10:00:00.123456789Z', Date.parse('2026-04-01T13:00:00Z')) // fresh
 */
export function freshness(triggeredAt: string | undefined, now: number): Freshness {
  const at = triggeredAt && ISO_INSTANT.test(triggeredAt) ? Date.parse(triggeredAt) : Number.NaN;
  if (Number.isNaN(at)) {
    return { kind: 'invalid', message: 'it has no X-Shopify-Triggered-At instant (ISO 8601)' };
  }
  if (at > now + CLOCK_SKEW_MS) return { kind: 'stale', reason: `triggered at ${triggeredAt}, in the future` };
  if (at < now - DELIVERY_SPAN_MS - CLOCK_SKEW_MS) {
    return { kind: 'stale', reason: `triggered at ${triggeredAt}, longer ago than Shopify retries a delivery` };
  }
  return { kind: 'fresh' };
}
