import { type Booking, type BookingCause, bookingKey } from '../../domain/order-bookings.js';
import { Dec, toPlainString } from '../../domain/decimal.js';
import type { VariantFactorFields } from '../../domain/variant-factors.js';
import type { OrderReference } from '../../domain/order-reference.js';
import type { Queryable } from '../db.js';

/**
 * A line Tare could not book, and why: its variant or the order's location is not configured,
 * its `_svc_data` is not a valid measurement, or the measurement it states cannot be booked
 * exactly (`detail` says what is wrong with the line).
 */
export interface SkippedLine {
  lineItemId: string;
  variantId: string | null;
  reason: 'unknown_variant' | 'unknown_location' | 'invalid_svc_data' | 'unbookable_measurement';
  detail?: string;
}

// Two advisory locks order Tare's bookings (PRODUCT.md §14). Each order has its own, held by
// whatever books it. Each shop has one more, which every booking and every order change on the
// embedded platform holds shared, and a stock notice holds exclusive while it books the orders
// it has not seen and reads the platform's figure: no order can then move the platform's stock
// between the two, where it would be taken for the merchant's change and booked a second time.
// The shop's lock comes first everywhere, then the order's, then levels, so bookings and
// notices never wait for each other in a cycle.
const shopOrdersKey = (shopId: string) => `tare:orders:${shopId}`;

/**
 * Serializes everything Tare books for one order, across transactions and instances, until this
 * transaction ends (taken before the order is read, so the booking follows the latest state).
 */
export async function lockOrderBookings(tx: Queryable, shopId: string, orderId: string): Promise<void> {
  // One round trip; PostgreSQL evaluates a select list left to right, so the shop's lock is first.
  await tx.query(
    'SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0)), pg_advisory_xact_lock(hashtextextended($2, 0))',
    [shopOrdersKey(shopId), `tare:order:${shopId}:${orderId}`],
  );
}

/** Taken by a platform change that creates an order (the sandbox's checkout) before it moves stock. */
export async function shareShopOrders(tx: Queryable, shopId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [shopOrdersKey(shopId)]);
}

/** Holds back every booking and platform order change of the shop until this transaction ends. */
export async function lockShopOrders(tx: Queryable, shopId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [shopOrdersKey(shopId)]);
}

export type StoredBooking = Booking & { unit: string };

/** What booking an order needs from Tare's side, read in one round trip (see `readOrderContext`). */
export interface OrderContext {
  /** True the first time Tare meets the order (it is tracked from now on). */
  isNew: boolean;
  locationKnown: boolean;
  /** Orders created before this were already in the stock Tare was given. */
  followsOrdersSince: Date;
  /** The configured variants the order's lines name. */
  variants: Map<string, { unit: string; unitValue: string } & VariantFactorFields>;
  bookings: Map<string, StoredBooking>;
}

/**
 * Tracks the order and reads everything its booking needs: the variants its
 * lines name, whether its location is known, since when the shop is followed, and what is
 * booked. Call it under `lockOrderBookings`, in a later statement (a statement's snapshot is
 * taken when it starts, so the lock must be held before).
 */
export async function readOrderContext(
  tx: Queryable,
  shopId: string,
  order: { id: string; locationId: string; variantIds: string[]; reference: OrderReference },
): Promise<OrderContext> {
  // Statements of their own, not data-modifying CTEs beside the reads: Citus runs those in
  // steps. The reference is written by the insert for a new order, else by the update, only
  // when it changed.
  const reference = [
    order.reference.name,
    order.reference.customer?.name ?? null,
    order.reference.customer?.email ?? null,
  ];
  const tracked = await tx.query(
    `INSERT INTO tracked_orders (shop_id, order_id, order_name, customer_name, customer_email)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (shop_id, order_id) DO NOTHING`,
    [shopId, order.id, ...reference],
  );
  if (tracked.rowCount === 0)
    await tx.query(
      `UPDATE tracked_orders SET order_name = $3, customer_name = $4, customer_email = $5
        WHERE shop_id = $1 AND order_id = $2
          AND (order_name, customer_name, customer_email) IS DISTINCT FROM ($3::text, $4::text, $5::text)`,
      [shopId, order.id, ...reference],
    );
  const { rows } = await tx.query<{
    location_known: boolean;
    follows_orders_since: Date;
    variants: ({ id: string; unit: string; unitValue: string } & VariantFactorFields)[];
    bookings: {
      lineItemId: string;
      variantId: string;
      cause: BookingCause;
      amount: string;
      unit: string;
      units: string;
    }[];
  }>(
    `SELECT EXISTS (SELECT 1 FROM locations WHERE shop_id = $1 AND id = $3) AS location_known,
       (SELECT follows_orders_since FROM shops WHERE id = $1) AS follows_orders_since,
       COALESCE((SELECT json_agg(json_build_object('id', v.id, 'unit', v.unit, 'unitValue', v.unit_value::text,
           'dimensions', v.dimensions, 'overagePercent', v.overage_percent::text, 'rules', v.rules))
         FROM variants v WHERE v.shop_id = $1 AND v.id = ANY($4::text[])), '[]') AS variants,
       COALESCE((SELECT json_agg(json_build_object('lineItemId', b.line_item_id, 'variantId', b.variant_id,
           'cause', b.cause, 'amount', b.amount::text, 'unit', b.unit, 'units', b.units::text))
         FROM order_bookings b WHERE b.shop_id = $1 AND b.order_id = $2), '[]') AS bookings`,
    [shopId, order.id, order.locationId, order.variantIds],
  );
  const row = rows[0]!;
  const bookings = row.bookings.map((b): StoredBooking => ({
    ...b,
    amount: new Dec(b.amount),
    units: Number(b.units),
  }));
  return {
    isNew: tracked.rowCount > 0,
    locationKnown: row.location_known,
    followsOrdersSince: row.follows_orders_since,
    variants: new Map(row.variants.map(({ id, ...variant }) => [id, variant])),
    bookings: new Map(bookings.map((b) => [bookingKey(b), b])),
  };
}

/**
 * Makes the order's bookings and skipped lines what is now booked: rows not in the new set are
 * deleted, the new set upserted, the skipped lines recorded. Three statements, each routed to
 * the shop's shard on Citus (as data-modifying CTEs of one statement, Citus ran them in steps).
 */
export async function saveBookings(
  tx: Queryable,
  shopId: string,
  orderId: string,
  bookings: StoredBooking[],
  skipped: SkippedLine[],
): Promise<void> {
  await tx.query(
    `DELETE FROM order_bookings b WHERE b.shop_id = $1 AND b.order_id = $2 AND NOT EXISTS (
       SELECT 1 FROM unnest($3::text[], $4::text[], $5::text[]) AS w(line_item_id, variant_id, cause)
        WHERE w.line_item_id = b.line_item_id AND w.variant_id = b.variant_id AND w.cause = b.cause)`,
    [
      shopId,
      orderId,
      bookings.map((b) => b.lineItemId),
      bookings.map((b) => b.variantId),
      bookings.map((b) => b.cause),
    ],
  );
  if (bookings.length > 0) {
    // Multi-row VALUES (an order's lines: a few rows), which Citus routes; an INSERT … SELECT
    // from unnest(…) it pulls through the coordinator.
    const params: unknown[] = [shopId, orderId];
    const values = bookings.map((b) => {
      const at = params.length;
      params.push(b.lineItemId, b.variantId, b.cause, toPlainString(b.amount), b.unit, b.units);
      return `($1, $2, $${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}::numeric, $${at + 5}, $${at + 6}::bigint)`;
    });
    await tx.query(
      `INSERT INTO order_bookings (shop_id, order_id, line_item_id, variant_id, cause, amount, unit, units)
       VALUES ${values.join(', ')}
       ON CONFLICT (shop_id, order_id, line_item_id, variant_id, cause) DO UPDATE
         SET amount = EXCLUDED.amount, unit = EXCLUDED.unit, units = EXCLUDED.units`,
      params,
    );
  }
  await tx.query(
    `UPDATE tracked_orders SET skipped = $3, updated_at = now()
     WHERE shop_id = $1 AND order_id = $2 AND skipped IS DISTINCT FROM $3::jsonb`,
    [shopId, orderId, JSON.stringify(skipped)],
  );
}

/** Orders with lines Tare could not book, the latest `limit`, for the admin and the reconciliation report. */
export async function listSkippedOrders(
  db: Queryable,
  shopId: string,
  limit = 100,
): Promise<{ orderId: string; skipped: SkippedLine[] }[]> {
  const { rows } = await db.query<{ order_id: string; skipped: SkippedLine[] }>(
    `SELECT order_id, skipped FROM (SELECT order_id, skipped FROM tracked_orders
       WHERE shop_id = $1 AND skipped <> '[]'::jsonb ORDER BY updated_at DESC, order_id LIMIT $2) latest
     ORDER BY order_id`,
    [shopId, limit],
  );
  return rows.map((r) => ({ orderId: r.order_id, skipped: r.skipped }));
}

/** Clears the customer kept on these orders (customers/redact); the number of orders that had one. */
export async function forgetOrderCustomers(tx: Queryable, shopId: string, orderIds: string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const { rowCount } = await tx.query(
    `UPDATE tracked_orders SET customer_name = NULL, customer_email = NULL
      WHERE shop_id = $1 AND order_id = ANY($2::text[]) AND (customer_name IS NOT NULL OR customer_email IS NOT NULL)`,
    [shopId, orderIds],
  );
  return rowCount;
}
