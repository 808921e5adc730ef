import type { Queryable } from '../../store/db.js';
import type { OrderCustomer, PlatformLineItem, PlatformOrder, PlatformRefund } from '../gateway.js';

/**
 * An order row of the embedded platform: the port's order without its lines and refunds. Its
 * number is given when it is first stored (numberOrder), and its customer is the one it was first
 * stored with: a later upsert (a status change, an import run again) changes neither.
 */
export type LocalOrder = Omit<PlatformOrder, 'lineItems' | 'refunds' | 'createdAt' | 'name' | 'customer'> & {
  customer?: OrderCustomer | null;
};

/** A line row of the embedded platform: the port's line, placed in its order. */
export interface LocalLineItem extends PlatformLineItem {
  orderId: string;
  position: number;
}

export async function upsertOrder(db: Queryable, shopId: string, order: LocalOrder): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO local_platform_orders (shop_id, id, status, location_id, customer_name, customer_email)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (shop_id, id) DO UPDATE SET status = EXCLUDED.status, location_id = EXCLUDED.location_id,
       updated_at = EXCLUDED.updated_at
     WHERE (local_platform_orders.status, local_platform_orders.location_id)
       IS DISTINCT FROM (EXCLUDED.status, EXCLUDED.location_id)`,
    [shopId, order.id, order.status, order.locationId, order.customer?.name ?? null, order.customer?.email ?? null],
  );
  await numberOrder(db, shopId, order.id);
  return rowCount > 0;
}

/**
 * Gives a new order the shop's next number (#1001, #1002, … as Shopify names them) once. The
 * shop's lock makes two checkouts at once take different numbers; it is held to the commit.
 */
async function numberOrder(db: Queryable, shopId: string, orderId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`tare:order-numbers:${shopId}`]);
  await db.query(
    `UPDATE local_platform_orders SET order_number =
       (SELECT COALESCE(max(order_number), 1000) + 1 FROM local_platform_orders WHERE shop_id = $1)
     WHERE shop_id = $1 AND id = $2 AND order_number IS NULL`,
    [shopId, orderId],
  );
}

export async function upsertLineItem(db: Queryable, shopId: string, line: LocalLineItem): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO local_platform_line_items AS l (shop_id, order_id, id, position, product_id, variant_id, quantity,
       price, fulfilled, properties)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (shop_id, id) DO UPDATE SET order_id = EXCLUDED.order_id, position = EXCLUDED.position,
       product_id = EXCLUDED.product_id, variant_id = EXCLUDED.variant_id, quantity = EXCLUDED.quantity,
       price = EXCLUDED.price, fulfilled = EXCLUDED.fulfilled, properties = EXCLUDED.properties
     WHERE (l.order_id, l.position, l.product_id, l.variant_id, l.quantity, l.price, l.fulfilled, l.properties)
       IS DISTINCT FROM (EXCLUDED.order_id, EXCLUDED.position, EXCLUDED.product_id, EXCLUDED.variant_id,
         EXCLUDED.quantity, EXCLUDED.price, EXCLUDED.fulfilled, EXCLUDED.properties)`,
    [
      shopId,
      line.orderId,
      line.id,
      line.position,
      line.productId,
      line.variantId,
      line.quantity,
      line.price,
      line.fulfilled,
      JSON.stringify(line.properties),
    ],
  );
  return rowCount > 0;
}

/**
 * The order with its lines and refunds, in one statement (numbers inside the JSON are text, so
 * nothing passes through a float); locked against concurrent edits for `forUpdate`.
 */
export async function readLocalOrder(
  db: Queryable,
  shopId: string,
  orderId: string,
  forUpdate: boolean,
): Promise<PlatformOrder | undefined> {
  const { rows } = await db.query<{
    id: string;
    order_number: string | null;
    customer_name: string | null;
    customer_email: string | null;
    status: LocalOrder['status'];
    location_id: string;
    created_at: Date;
    lines: PlatformLineItem[];
    refunds: PlatformRefund[];
  }>(
    // Every subquery names the shop ($1, not o.shop_id): Citus routes a FOR UPDATE to one shard
    // only when each table in it is filtered by the shop.
    `SELECT o.id, o.order_number::text AS order_number, o.customer_name, o.customer_email, o.status,
       o.location_id, o.created_at,
       COALESCE((SELECT json_agg(json_build_object('id', l.id, 'productId', l.product_id, 'variantId', l.variant_id,
           'quantity', l.quantity, 'price', l.price::text, 'fulfilled', l.fulfilled, 'properties', l.properties)
           ORDER BY l.position, l.id)
         FROM local_platform_line_items l WHERE l.shop_id = $1 AND l.order_id = o.id), '[]') AS lines,
       COALESCE((SELECT json_agg(json_build_object('id', r.id, 'lines', r.lines) ORDER BY r.created_at, r.id)
         FROM local_platform_refunds r WHERE r.shop_id = $1 AND r.order_id = o.id), '[]') AS refunds
     FROM local_platform_orders o WHERE o.shop_id = $1 AND o.id = $2${forUpdate ? ' FOR UPDATE OF o' : ''}`,
    [shopId, orderId],
  );
  const order = rows[0];
  if (!order) return undefined;
  const { customer_name: name, customer_email: email } = order;
  return {
    id: order.id,
    name: `#${order.order_number ?? order.id}`,
    customer: name === null && email === null ? null : { name, email },
    status: order.status,
    locationId: order.location_id,
    createdAt: order.created_at,
    refunds: order.refunds,
    lineItems: order.lines,
  };
}

export async function updateLineItem(
  db: Queryable,
  shopId: string,
  line: {
    id: string;
    variantId: string | null;
    quantity: number;
    price: string;
    properties: LocalLineItem['properties'];
  },
): Promise<void> {
  await db.query(
    `UPDATE local_platform_line_items SET variant_id = $3, quantity = $4, price = $5, properties = $6
     WHERE shop_id = $1 AND id = $2`,
    [shopId, line.id, line.variantId, line.quantity, line.price, JSON.stringify(line.properties)],
  );
}

export async function deleteLineItem(db: Queryable, shopId: string, lineItemId: string): Promise<void> {
  await db.query('DELETE FROM local_platform_line_items WHERE shop_id = $1 AND id = $2', [shopId, lineItemId]);
}

export async function touchOrder(db: Queryable, shopId: string, orderId: string): Promise<void> {
  await db.query('UPDATE local_platform_orders SET updated_at = now() WHERE shop_id = $1 AND id = $2', [
    shopId,
    orderId,
  ]);
}

/** Ids of the orders created or changed since `since` (all when null), oldest change first. */
export async function localOrdersChangedSince(db: Queryable, shopId: string, since: Date | null): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM local_platform_orders WHERE shop_id = $1 AND ($2::timestamptz IS NULL OR updated_at >= $2)
     ORDER BY updated_at, id`,
    [shopId, since?.toISOString() ?? null],
  );
  return rows.map((r) => r.id);
}
