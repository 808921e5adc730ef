import type { Queryable } from '../../../../store/db.js';

/** How many products the storefront's front page lists, and variants a product page offers. */
export const STOREFRONT_PAGE_SIZE = 100;

export interface StorefrontProduct {
  id: string;
  title: string;
}

/** The shop's products that have a variant to sell, by id (the storefront's front page). */
export async function listStorefrontProducts(db: Queryable, shopId: string): Promise<StorefrontProduct[]> {
  const { rows } = await db.query<StorefrontProduct>(
    `SELECT p.id, p.title FROM products p
     WHERE p.shop_id = $1 AND EXISTS (SELECT 1 FROM variants v WHERE v.shop_id = $1 AND v.product_id = p.id)
     ORDER BY p.id LIMIT $2`,
    [shopId, STOREFRONT_PAGE_SIZE],
  );
  return rows;
}
