import type { Queryable } from '../../../store/db.js';
import type { PlatformRefund } from '../../gateway.js';

/** `count` new ids for orders, lines and refunds, numeric as a platform's are. */
export async function nextPlatformIds(db: Queryable, count: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT nextval('local_platform_ids')::text AS id FROM generate_series(1, $1::integer)",
    [count],
  );
  return rows.map((r) => r.id);
}

/** The shop's first location in id order (numeric ids compare as numbers), if it has one. */
export async function firstLocationId(db: Queryable, shopId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM locations WHERE shop_id = $1 ORDER BY length(id), id COLLATE "C" LIMIT 1',
    [shopId],
  );
  return rows[0]?.id;
}

export async function insertRefund(
  db: Queryable,
  shopId: string,
  orderId: string,
  refund: PlatformRefund,
): Promise<void> {
  await db.query('INSERT INTO local_platform_refunds (shop_id, order_id, id, lines) VALUES ($1, $2, $3, $4)', [
    shopId,
    orderId,
    refund.id,
    JSON.stringify(refund.lines),
  ]);
}

export async function fulfilLines(db: Queryable, shopId: string, orderId: string): Promise<void> {
  await db.query(
    'UPDATE local_platform_line_items SET fulfilled = true WHERE shop_id = $1 AND order_id = $2 AND NOT fulfilled',
    [shopId, orderId],
  );
}
