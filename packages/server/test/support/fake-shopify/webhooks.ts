import { createHmac, randomUUID } from 'node:crypto';
import type { FakeStore } from './state.js';

/**
 * Webhook deliveries as Shopify makes them (https://shopify.dev/docs/apps/build/webhooks/delivery-structure):
 * an HTTP POST of the topic's JSON payload to every address subscribed to the topic, signed with
 * the app's client secret (base64 HMAC-SHA256 of the raw body,
 * https://shopify.dev/docs/apps/build/webhooks/verify-deliveries), retried on a non-2xx answer or
 * no answer within 5 s (Shopify retries 8 times over 4 hours; here the delays are short and
 * configurable). Two header families: `X-Shopify-*` (webhooks) and lowercase `shopify-*` (the
 * Events deliveries, names as Shopify's own library spells them, `ShopifyEventsHeader` in
 * https://github.com/Shopify/shopify-app-js packages/apps/shopify-api/lib/types.ts, plus
 * `shopify-webhook-id`, https://shopify.dev/docs/apps/build/events/verify-deliveries).
 * Deliveries go out one at a time in the order they happened, unless held and released in
 * another order, duplicated or shuffled.
 */
export type HeaderFamily = 'x-shopify' | 'shopify';

export interface WebhookDelivery {
  webhookId: string;
  eventId: string;
  topic: string;
  address: string;
  body: string;
  triggeredAt: string;
}

export interface DeliveryRecord extends WebhookDelivery {
  attempt: number;
  /** The HTTP status answered, or `error` when the request failed or timed out. */
  status: number | 'error';
  headers: Record<string, string>;
}

export interface ReleaseOptions {
  /** Each held delivery is sent this many extra times (same webhook id, as Shopify's duplicates are). */
  duplicate?: number;
  reverse?: boolean;
  /** Seed of a deterministic shuffle of the held deliveries. */
  shuffle?: number;
}

const COMPLIANCE_TOPICS = new Set(['customers/data_request', 'customers/redact', 'shop/redact']);

export function webhookSignature(body: string, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(body, 'utf8').digest('base64');
}

function seededShuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

export class WebhookDispatcher {
  /** Every attempt made, in order, with the status it got. */
  readonly delivered: DeliveryRecord[] = [];
  headerFamily: HeaderFamily = 'x-shopify';
  /** An address that receives every topic (a test's stand-in for the app's configuration). */
  address: string | undefined;
  private held: WebhookDelivery[] | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: FakeStore,
    private readonly options: {
      clientSecret: () => string;
      apiVersion: string;
      retry: { attempts: number; baseDelayMs: number };
      subscribedAddresses: (topic: string) => string[];
    },
  ) {}

  /** Queues the topic's payload for every address that takes it; returns the deliveries made. */
  emit(topic: string, payload: unknown): WebhookDelivery[] {
    const body = JSON.stringify(payload);
    const eventId = randomUUID();
    const triggeredAt = new Date(this.store.now()).toISOString();
    const addresses = new Set(COMPLIANCE_TOPICS.has(topic) ? [] : this.options.subscribedAddresses(topic));
    if (this.address) addresses.add(this.address);
    const deliveries = [...addresses].map((address) => ({
      webhookId: randomUUID(),
      eventId,
      topic,
      address,
      body,
      triggeredAt,
    }));
    for (const delivery of deliveries) {
      if (this.held) this.held.push(delivery);
      else this.enqueue(delivery);
    }
    return deliveries;
  }

  /** Keeps deliveries back until `release`. */
  hold(): void {
    this.held ??= [];
  }

  /** Sends what was held (in the order asked), stops holding, and resolves when all are answered. */
  async release(options: ReleaseOptions = {}): Promise<void> {
    let batch = this.held ?? [];
    this.held = undefined;
    if (options.shuffle !== undefined) batch = seededShuffle(batch, options.shuffle);
    if (options.reverse) batch = [...batch].reverse();
    for (const delivery of batch) {
      for (let copy = 0; copy <= (options.duplicate ?? 0); copy += 1) this.enqueue(delivery);
    }
    await this.settled();
  }

  /** Deliveries still held. */
  get pending(): readonly WebhookDelivery[] {
    return this.held ?? [];
  }

  /** Resolves once every queued delivery, retries included, has been answered or given up. */
  async settled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.chain) {
      seen = this.chain;
      await seen;
    }
  }

  /** Abandons what is queued and in flight (the fake is closing). */
  async stop(): Promise<void> {
    this.held = undefined;
    this.stopping.abort();
    await this.settled();
  }

  /** Sends a body as it is, with a chosen (possibly wrong) signature: for tests of bad deliveries. */
  async sendRaw(input: { topic: string; body: string; address?: string; hmac?: string }): Promise<number | 'error'> {
    const delivery = {
      webhookId: randomUUID(),
      eventId: randomUUID(),
      topic: input.topic,
      address: input.address ?? this.address ?? '',
      body: input.body,
      triggeredAt: new Date(this.store.now()).toISOString(),
    };
    return this.attempt(delivery, 0, input.hmac);
  }

  headersFor(delivery: WebhookDelivery, hmac?: string): Record<string, string> {
    const values = {
      topic: delivery.topic,
      'hmac-sha256': hmac ?? webhookSignature(delivery.body, this.options.clientSecret()),
      'shop-domain': this.store.shop.domain,
      'webhook-id': delivery.webhookId,
      'event-id': delivery.eventId,
      'triggered-at': delivery.triggeredAt,
      'api-version': this.options.apiVersion,
    };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const [name, value] of Object.entries(values)) {
      headers[this.headerFamily === 'x-shopify' ? `x-shopify-${name}` : `shopify-${name}`] = value;
    }
    return headers;
  }

  private enqueue(delivery: WebhookDelivery): void {
    this.chain = this.chain.then(() => this.deliverWithRetries(delivery));
  }

  private async deliverWithRetries(delivery: WebhookDelivery): Promise<void> {
    const { attempts, baseDelayMs } = this.options.retry;
    for (let attempt = 0; attempt <= attempts && !this.stopping.signal.aborted; attempt += 1) {
      const status = await this.attempt(delivery, attempt);
      if (typeof status === 'number' && status >= 200 && status < 300) return;
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, baseDelayMs * 2 ** attempt));
    }
  }

  private async attempt(delivery: WebhookDelivery, attempt: number, hmac?: string): Promise<number | 'error'> {
    const headers = this.headersFor(delivery, hmac);
    let status: number | 'error';
    try {
      const response = await fetch(delivery.address, {
        method: 'POST',
        headers,
        body: delivery.body,
        signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(5000)]),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 'error';
    }
    this.delivered.push({ ...delivery, attempt, status, headers });
    return status;
  }
}
