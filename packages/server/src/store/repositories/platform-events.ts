import { notifyAtCommit } from '../coordinator-calls.js';
import type { Queryable } from '../db.js';
import type { DueQueue } from './due-shops.js';
import type { PlatformKind } from './shops.js';
import type { ShopifyConnectionStatus } from '../../platform/shopify/connection.js';

/** What happened on the platform, in Tare's words (PRODUCT.md §14); every adapter maps onto these. */
export type PlatformEventTopic =
  | 'order_placed'
  | 'order_cancelled'
  | 'refund_created'
  | 'order_edited'
  | 'order_updated'
  | 'stock_changed'
  // Shopify's own (PRODUCT.md §16): the variant → inventory item mapping, the app's removal and
  // the compliance requests.
  | 'products_updated'
  | 'app_uninstalled'
  | 'shop_redact'
  | 'customers_data_request'
  | 'customers_redact';

/** The payloads are triggers: processing re-reads the platform's truth, so order never matters. */
export type PlatformEventPayload =
  | { orderId: string }
  | { locationId: string; variantId: string; available?: number }
  | { productId: string; inventoryItems: { variantId: string; inventoryItemId: string }[] }
  /** customers/redact: the orders whose customer Tare must forget (ids only, never the customer). */
  | { orderIds: string[] }
  | Record<string, never>;

export interface IncomingEvent {
  shopId: string;
  /** The platform's id for the delivery (a webhook id): the inbox keeps each once per shop. */
  eventId: string;
  topic: PlatformEventTopic;
  payload: PlatformEventPayload;
  /** Not before this moment (a late delivery); now when absent. */
  notBefore?: Date;
}

export interface InboxEvent {
  id: string;
  shopId: string;
  eventId: string;
  topic: PlatformEventTopic;
  payload: PlatformEventPayload;
  attempts: number;
  /** The shop's platform and its Shopify sync's status (none when not connected), read with the claim. */
  platform?: PlatformKind | null;
  shopifySync?: ShopifyConnectionStatus | null;
}

/** NOTIFY channel that wakes the inbox workers of every instance when an event is stored. */
export const PLATFORM_EVENT_STORED = 'tare_platform_event_stored';

/**
 * Stores the event unless the shop already has one with that id; true when it was new. Runs in
 * the caller's transaction, so an event is acknowledged only once it is durable.
 */
export async function storeEvent(db: Queryable, event: IncomingEvent): Promise<boolean> {
  // On a worker (shard routing) the id is drawn on the coordinator: one series on every node.
  const [id] = (await db.coordinator?.nextIds('platform_events_id_seq', 1)) ?? [];
  const { rowCount } = await db.query(
    `INSERT INTO platform_events (${id ? 'id, ' : ''}shop_id, event_id, topic, payload, next_attempt_at)
     VALUES (${id ? '$6, ' : ''}$1, $2, $3, $4, COALESCE($5::timestamptz, now()))
     ON CONFLICT (shop_id, event_id) DO NOTHING`,
    [
      event.shopId,
      event.eventId,
      event.topic,
      JSON.stringify(event.payload),
      event.notBefore?.toISOString() ?? null,
      ...(id ? [id] : []),
    ],
  );
  if (rowCount > 0) await notifyAtCommit(db, PLATFORM_EVENT_STORED, event.shopId);
  return rowCount > 0;
}

/** The inbox as a queue: pending events, oldest due first. */
export const INBOX_QUEUE: DueQueue = { table: 'platform_events', pending: `status = 'pending'` };

/**
 * Claims the shop's oldest due pending event and marks it processed: the caller processes it in
 * the same transaction, so the mark commits with the processing or not at all. Events another
 * instance is processing are skipped (each is worked on by one instance). One shard on Citus.
 */
export async function claimDueEvent(tx: Queryable, shopId: string): Promise<InboxEvent | undefined> {
  const { rows } = await tx.query<{
    id: string;
    shop_id: string;
    event_id: string;
    topic: PlatformEventTopic;
    payload: PlatformEventPayload;
    attempts: number;
    platform: PlatformKind | null;
    shopify_sync: ShopifyConnectionStatus | null;
  }>(
    `UPDATE platform_events e SET status = 'processed', processed_at = now(), attempts = attempts + 1, last_error = NULL
     WHERE shop_id = $1
       AND id = (SELECT id FROM platform_events WHERE shop_id = $1 AND status = 'pending' AND next_attempt_at <= now()
                 ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, shop_id, event_id, topic, payload, attempts - 1 AS attempts,
       (SELECT platform FROM shops WHERE id = $1) AS platform,
       (SELECT status FROM shopify_connections WHERE shop_id = $1) AS shopify_sync`,
    [shopId],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        shopId: row.shop_id,
        eventId: row.event_id,
        topic: row.topic,
        payload: row.payload,
        attempts: row.attempts,
        platform: row.platform,
        shopifySync: row.shopify_sync,
      }
    : undefined;
}

/**
 * Records a failed attempt: the event is tried again after `retryInMs`, or parked (kept, with
 * its error, out of the way of the others) when `park` is set. Only a still-pending event is
 * touched, so an instance that lost a race cannot undo another's success.
 */
export async function markFailed(
  db: Queryable,
  event: Pick<InboxEvent, 'shopId' | 'id'>,
  failure: { error: string; retryInMs: number; park: boolean },
): Promise<void> {
  await db.query(
    `UPDATE platform_events SET attempts = attempts + 1, last_error = $2,
       status = CASE WHEN $4 THEN 'parked' ELSE status END,
       next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
     WHERE shop_id = $5 AND id = $1 AND status = 'pending'`,
    [event.id, failure.error.slice(0, 2000), failure.retryInMs, failure.park, event.shopId],
  );
}

/**
 * Puts a claimed event back, pending with no due date, without counting the attempt: the shop's
 * sync is stopped (Shopify app uninstalled, token revoked) and the event waits, kept, until
 * `releaseHeldEvents` when the shop is connected again.
 */
export async function holdEvent(tx: Queryable, event: Pick<InboxEvent, 'shopId' | 'id'>): Promise<void> {
  await tx.query(
    `UPDATE platform_events SET status = 'pending', processed_at = NULL, attempts = greatest(attempts - 1, 0),
       next_attempt_at = 'infinity'
     WHERE shop_id = $1 AND id = $2`,
    [event.shopId, event.id],
  );
}

/** Makes the shop's held events due now (it was connected again); wakes the inbox workers. */
export async function releaseHeldEvents(db: Queryable, shopId: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE platform_events SET next_attempt_at = now()
     WHERE shop_id = $1 AND status = 'pending' AND next_attempt_at = 'infinity'`,
    [shopId],
  );
  if (rowCount > 0) await db.query('SELECT pg_notify($1, $2)', [PLATFORM_EVENT_STORED, shopId]);
  return rowCount;
}

export interface InboxStats {
  pending: number;
  parked: number;
  oldestPendingAt: Date | null;
}

export async function inboxStats(db: Queryable, shopId?: string): Promise<InboxStats> {
  const { rows } = await db.query<{ pending: string; parked: string; oldest: Date | null }>(
    `SELECT count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'parked') AS parked,
       min(received_at) FILTER (WHERE status = 'pending') AS oldest
     FROM platform_events WHERE ($1::bigint IS NULL OR shop_id = $1)`,
    [shopId ?? null],
  );
  const row = rows[0]!;
  return { pending: Number(row.pending), parked: Number(row.parked), oldestPendingAt: row.oldest };
}

/** An event that failed at least once: retrying (`pending`) or parked after its last attempt. */
export interface FailingEvent {
  eventId: string;
  topic: PlatformEventTopic;
  status: 'pending' | 'parked';
  /** The order it is about, for order events. */
  orderId: string | null;
  attempts: number;
  lastError: string | null;
  receivedAt: Date;
  nextAttemptAt: Date;
}

/** The shop's failing events, parked first, then the most retried: which event is stuck, and why. */
export async function listFailingEvents(db: Queryable, shopId: string, limit = 50): Promise<FailingEvent[]> {
  const { rows } = await db.query<{
    event_id: string;
    topic: PlatformEventTopic;
    status: 'pending' | 'parked';
    order_id: string | null;
    attempts: number;
    last_error: string | null;
    received_at: Date;
    next_attempt_at: Date;
  }>(
    `SELECT event_id, topic, status, payload->>'orderId' AS order_id, attempts, last_error, received_at, next_attempt_at
     FROM platform_events WHERE shop_id = $1 AND status <> 'processed' AND attempts > 0
     ORDER BY status = 'parked' DESC, attempts DESC, id LIMIT $2`,
    [shopId, limit],
  );
  return rows.map((r) => ({
    eventId: r.event_id,
    topic: r.topic,
    status: r.status,
    orderId: r.order_id,
    attempts: r.attempts,
    lastError: r.last_error,
    receivedAt: r.received_at,
    nextAttemptAt: r.next_attempt_at,
  }));
}
