import type { OrderCustomer } from '../../domain/order-reference.js';
import type { Queryable } from '../db.js';

/** Keyset position in the list of booked orders: newest first by (first seen, order id). */
export interface BookedOrderKey {
  /** `tracked_orders.created_at` as PostgreSQL prints it (microseconds kept, which a Date loses). */
  seenAt: string;
  orderId: string;
}

export interface BookedOrder extends BookedOrderKey {
  seenAtDate: Date;
  /** The order's name on the platform as of its last sync (`#1001`); null for one synced before Tare kept it. */
  name: string | null;
  /** Who placed it as of its last sync; null when nobody is known (a guest, withheld, redacted). */
  customer: OrderCustomer | null;
  /** Lines Tare takes a measure off (a sale booking with a measure above zero). */
  measuredLines: number;
  /** Lines Tare could not book (unknown variant or location). */
  skippedLines: number;
  cancelled: boolean;
  refunded: boolean;
}

/**
 * The orders Tare has booked for the shop (a measured line booked or a line it had to skip),
 * newest first, `limit + 1` rows strictly after `from`, so the caller can tell whether more follow.
 */
export async function listBookedOrders(
  db: Queryable,
  shopId: string,
  page: { from?: BookedOrderKey; limit: number },
): Promise<BookedOrder[]> {
  const { rows } = await db.query<{
    order_id: string;
    seen_at: string;
    seen_at_date: Date;
    order_name: string | null;
    customer_name: string | null;
    customer_email: string | null;
    measured_lines: string;
    skipped_lines: number;
    cancelled: boolean;
    refunded: boolean;
  }>(
    `SELECT * FROM (
       SELECT t.order_id, t.created_at::text AS seen_at, t.created_at AS seen_at_date, t.order_name,
         t.customer_name, t.customer_email,
         (SELECT count(DISTINCT b.line_item_id) FROM order_bookings b
           WHERE b.shop_id = $1 AND b.order_id = t.order_id AND b.cause = 'sale' AND b.amount > 0)
           AS measured_lines,
         jsonb_array_length(t.skipped) AS skipped_lines,
         EXISTS (SELECT 1 FROM order_bookings b WHERE b.shop_id = $1 AND b.order_id = t.order_id
           AND b.cause = 'cancel') AS cancelled,
         EXISTS (SELECT 1 FROM order_bookings b WHERE b.shop_id = $1 AND b.order_id = t.order_id
           AND b.cause LIKE 'refund:%') AS refunded
       FROM tracked_orders t
       WHERE t.shop_id = $1 AND ($2::timestamptz IS NULL OR (t.created_at, t.order_id) < ($2::timestamptz, $3::text))
     ) o
     WHERE o.measured_lines > 0 OR o.skipped_lines > 0
     ORDER BY o.seen_at_date DESC, o.order_id DESC LIMIT $4`,
    [shopId, page.from?.seenAt ?? null, page.from?.orderId ?? null, page.limit + 1],
  );
  return rows.map((row) => ({
    orderId: row.order_id,
    seenAt: row.seen_at,
    seenAtDate: row.seen_at_date,
    name: row.order_name,
    customer:
      row.customer_name === null && row.customer_email === null
        ? null
        : { name: row.customer_name, email: row.customer_email },
    measuredLines: Number(row.measured_lines),
    skippedLines: row.skipped_lines,
    cancelled: row.cancelled,
    refunded: row.refunded,
  }));
}

/** What Tare has booked for one order: per line, variant and cause, exact in the level's unit. */
export async function listOrderBookings(
  db: Queryable,
  shopId: string,
  orderId: string,
): Promise<{ lineItemId: string; variantId: string; cause: string; amount: string; unit: string }[]> {
  const { rows } = await db.query<{
    line_item_id: string;
    variant_id: string;
    cause: string;
    amount: string;
    unit: string;
  }>(
    `SELECT line_item_id, variant_id, cause, amount::text AS amount, unit FROM order_bookings
     WHERE shop_id = $1 AND order_id = $2 AND amount > 0 ORDER BY line_item_id, variant_id, cause`,
    [shopId, orderId],
  );
  return rows.map((row) => ({
    lineItemId: row.line_item_id,
    variantId: row.variant_id,
    cause: row.cause,
    amount: row.amount,
    unit: row.unit,
  }));
}

/** The order each of `refundIds` gave stock back for (a ledger entry of a refund names the refund only). */
export async function ordersOfRefunds(
  db: Queryable,
  shopId: string,
  refundIds: string[],
): Promise<Map<string, string>> {
  if (refundIds.length === 0) return new Map();
  const { rows } = await db.query<{ refund_id: string; order_id: string }>(
    `SELECT DISTINCT substr(cause, 8) AS refund_id, order_id FROM order_bookings
     WHERE shop_id = $1 AND cause = ANY($2::text[])`,
    [shopId, refundIds.map((id) => `refund:${id}`)],
  );
  return new Map(rows.map((row) => [row.refund_id, row.order_id]));
}

export interface OrderCatalog {
  products: Map<string, { title: string; measurementType: string }>;
  /** The variants of those products (the ones an edit may move a line to) and any other named. */
  variants: Map<string, { title: string; productId: string; unit: string; unitValue: string }>;
}

/** Titles of the order's products and their variants, for showing and editing its lines. */
export async function orderCatalog(
  db: Queryable,
  shopId: string,
  productIds: string[],
  variantIds: string[],
): Promise<OrderCatalog> {
  const { rows } = await db.query<{
    kind: 'product' | 'variant';
    id: string;
    product_id: string;
    title: string;
    detail: string;
    unit_value: string | null;
  }>(
    `SELECT 'product' AS kind, id, id AS product_id, 0 AS position, title, measurement_type AS detail,
       NULL AS unit_value FROM products
       WHERE shop_id = $1 AND id = ANY($2::text[])
     UNION ALL
     SELECT 'variant', id, product_id, position, title, unit, unit_value::text FROM variants
       WHERE shop_id = $1 AND (product_id = ANY($2::text[]) OR id = ANY($3::text[]))
     ORDER BY kind, product_id, position, id`,
    [shopId, productIds, variantIds],
  );
  const catalog: OrderCatalog = { products: new Map(), variants: new Map() };
  for (const row of rows) {
    if (row.kind === 'product') catalog.products.set(row.id, { title: row.title, measurementType: row.detail });
    else {
      catalog.variants.set(row.id, {
        title: row.title,
        productId: row.product_id,
        unit: row.detail,
        unitValue: row.unit_value ?? '1',
      });
    }
  }
  return catalog;
}
