import { type Booking, type BookingCause, bookingKey } from '../../domain/order-bookings.js';
import { Dec, toPlainString } from '../../domain/decimal.js';
import type { Queryable } from '../db.js';

/** A line Tare could not book: its variant or the order's location is not configured. */
export interface SkippedLine {
  lineItemId: string;
  variantId: string | null;
  reason: 'unknown_variant' | 'unknown_location';
}

/**
 * Serializes everything Tare books for one order, across transactions and instances, until this
 * transaction ends (taken before the order is read, so the booking follows the latest state).
 */
export async function lockOrderBookings(tx: Queryable, shopId: string, orderId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`tare:order:${shopId}:${orderId}`]);
}

/** Records that Tare follows the order; true the first time. */
export async function trackOrder(tx: Queryable, shopId: string, orderId: string): Promise<boolean> {
  const inserted = await tx.query(
    'INSERT INTO tracked_orders (shop_id, order_id) VALUES ($1, $2) ON CONFLICT (shop_id, order_id) DO NOTHING',
    [shopId, orderId],
  );
  return inserted.rowCount > 0;
}

export type StoredBooking = Booking & { unit: string };

export async function readBookings(
  tx: Queryable,
  shopId: string,
  orderId: string,
): Promise<Map<string, StoredBooking>> {
  const { rows } = await tx.query<{
    line_item_id: string;
    variant_id: string;
    cause: BookingCause;
    amount: string;
    unit: string;
    units: string;
  }>(
    `SELECT line_item_id, variant_id, cause, amount, unit, units FROM order_bookings
     WHERE shop_id = $1 AND order_id = $2`,
    [shopId, orderId],
  );
  const bookings = rows.map((r): StoredBooking => ({
    lineItemId: r.line_item_id,
    variantId: r.variant_id,
    cause: r.cause,
    amount: new Dec(r.amount),
    unit: r.unit,
    units: Number(r.units),
  }));
  return new Map(bookings.map((b) => [bookingKey(b), b]));
}

/** Replaces the order's bookings and skipped lines with what is now booked. */
export async function saveBookings(
  tx: Queryable,
  shopId: string,
  orderId: string,
  bookings: StoredBooking[],
  skipped: SkippedLine[],
): Promise<void> {
  await tx.query('DELETE FROM order_bookings WHERE shop_id = $1 AND order_id = $2', [shopId, orderId]);
  if (bookings.length) {
    await tx.query(
      `INSERT INTO order_bookings (shop_id, order_id, line_item_id, variant_id, cause, amount, unit, units)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::numeric[], $7::text[], $8::bigint[])`,
      [
        shopId,
        orderId,
        bookings.map((b) => b.lineItemId),
        bookings.map((b) => b.variantId),
        bookings.map((b) => b.cause),
        bookings.map((b) => toPlainString(b.amount)),
        bookings.map((b) => b.unit),
        bookings.map((b) => b.units),
      ],
    );
  }
  await tx.query(
    `UPDATE tracked_orders SET skipped = $3, updated_at = now()
     WHERE shop_id = $1 AND order_id = $2 AND skipped IS DISTINCT FROM $3::jsonb`,
    [shopId, orderId, JSON.stringify(skipped)],
  );
}

/** Orders with lines Tare could not book, for the admin and the reconciliation report. */
export async function listSkippedOrders(
  db: Queryable,
  shopId: string,
): Promise<{ orderId: string; skipped: SkippedLine[] }[]> {
  const { rows } = await db.query<{ order_id: string; skipped: SkippedLine[] }>(
    `SELECT order_id, skipped FROM tracked_orders WHERE shop_id = $1 AND skipped <> '[]'::jsonb ORDER BY order_id`,
    [shopId],
  );
  return rows.map((r) => ({ orderId: r.order_id, skipped: r.skipped }));
}
