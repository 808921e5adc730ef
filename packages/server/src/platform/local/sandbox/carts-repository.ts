import type { Queryable } from '../../../store/db.js';
import type { CartLine } from './cart-lines.js';

export async function insertCart(db: Queryable, shopId: string, token: string): Promise<void> {
  await db.query('INSERT INTO sandbox_carts (shop_id, token) VALUES ($1, $2)', [shopId, token]);
}

/** The cart's lines, locked for this transaction when `forUpdate`; undefined for another shop's or no cart. */
export async function readCartLines(
  db: Queryable,
  shopId: string,
  token: string,
  forUpdate: boolean,
): Promise<CartLine[] | undefined> {
  const { rows } = await db.query<{ items: CartLine[] }>(
    `SELECT items FROM sandbox_carts WHERE shop_id = $1 AND token = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [shopId, token],
  );
  return rows[0]?.items;
}

export async function saveCartLines(db: Queryable, shopId: string, token: string, lines: CartLine[]): Promise<void> {
  await db.query('UPDATE sandbox_carts SET items = $3, updated_at = now() WHERE shop_id = $1 AND token = $2', [
    shopId,
    token,
    JSON.stringify(lines),
  ]);
}

export async function deleteCart(db: Queryable, shopId: string, token: string): Promise<void> {
  await db.query('DELETE FROM sandbox_carts WHERE shop_id = $1 AND token = $2', [shopId, token]);
}
