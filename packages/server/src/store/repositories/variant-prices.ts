import type { VariantPrice } from '../../platform/gateway.js';
import type { Queryable } from '../db.js';

/** A price as Shopify's Money scalar carries it: a non-negative decimal. */
const PRICE = /^\d{1,15}(\.\d{1,10})?$/;

/**
 * Takes the platform's prices for the product's variants where they differ from Tare's (by
 * value: 24.5 and 24.50 are one price); variants Tare does not have, and prices that are not a
 * non-negative decimal, are left alone. Returns the ids of the variants whose price changed.
 */
export async function adoptVariantPrices(
  tx: Queryable,
  shopId: string,
  productId: string,
  prices: VariantPrice[],
): Promise<string[]> {
  const sound = prices.filter((p) => PRICE.test(p.price));
  if (sound.length === 0) return [];
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE variants v SET price = p.price::numeric
       FROM unnest($3::text[], $4::text[]) AS p(id, price)
      WHERE v.shop_id = $1 AND v.product_id = $2 AND v.id = p.id AND v.price <> p.price::numeric
      RETURNING v.id`,
    [shopId, productId, sound.map((p) => p.variantId), sound.map((p) => p.price)],
  );
  return rows.map((row) => row.id).sort();
}
