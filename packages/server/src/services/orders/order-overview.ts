import { errors } from '../../errors.js';
import type { Db } from '../../store/db.js';
import {
  type BookedOrder,
  type BookedOrderKey,
  listBookedOrders,
  listOrderBookings,
  orderCatalog,
} from '../../store/repositories/booked-orders.js';
import { listOrderEdits } from '../../store/repositories/order-edits.js';
import type { OrderReader } from './read-order.js';

const PAGE_SIZE = 50;
const HISTORY_ROWS = 50;
/** A PostgreSQL timestamptz as `::text` prints it, e.g. `2026-04-01 09:30:00.123456+00`. */
const SEEN_AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

function encodeCursor(key: BookedOrderKey): string {
  return Buffer.from(JSON.stringify([key.seenAt, key.orderId])).toString('base64url');
}

function decodeCursor(cursor: string): BookedOrderKey {
  try {
    const [seenAt, orderId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof seenAt === 'string' && SEEN_AT.test(seenAt) && typeof orderId === 'string') return { seenAt, orderId };
  } catch {
    // reported below, like any other cursor this page did not issue
  }
  throw errors.validation([{ path: '/after', message: 'is not a cursor this page issued' }], 'querystring');
}

/**
 * The orders Tare has booked for the shop, newest first, a page at a time. The cursor is only
 * a position (when Tare first met an order, and its id), so it needs no secret: a forged one
 * can only start the shop's own list elsewhere.
 */
export async function bookedOrdersPage(
  db: Db,
  shopId: string,
  after?: string,
): Promise<{ orders: BookedOrder[]; nextCursor: string | null }> {
  const rows = await listBookedOrders(db, shopId, {
    from: after === undefined ? undefined : decodeCursor(after),
    limit: PAGE_SIZE,
  });
  const orders = rows.slice(0, PAGE_SIZE);
  const last = orders.at(-1);
  return { orders, nextCursor: rows.length > PAGE_SIZE && last ? encodeCursor(last) : null };
}

/**
 * One order as the admin shows it: its service-managed lines read exactly as `GET /orders/{id}`
 * reads them (another shop's order or an unknown one is not found), with the titles of its
 * products and variants, what Tare booked for it and the edits made through Tare; `platform` is
 * the platform's order (every line with its price as charged, its name and who placed it, read
 * now), `currency` the shop's.
 */
export async function orderDetail(deps: { db: Db; readOrder: OrderReader }, shopId: string, orderId: string) {
  const {
    data: order,
    platform,
    currency,
  } = await deps.readOrder.withPlatformOrder(shopId, orderId, {
    customer: true,
  });
  const productIds = order.items.flatMap((item) => (item.productId ? [item.productId] : []));
  const variantIds = order.items.flatMap((item) => (item.variantId ? [item.variantId] : []));
  const [catalog, bookings, edits] = await Promise.all([
    orderCatalog(deps.db, shopId, [...new Set(productIds)], [...new Set(variantIds)]),
    listOrderBookings(deps.db, shopId, orderId),
    listOrderEdits(deps.db, shopId, orderId, HISTORY_ROWS),
  ]);
  return { order, platform, currency, catalog, bookings, edits };
}
export type OrderDetail = Awaited<ReturnType<typeof orderDetail>>;
