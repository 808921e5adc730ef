import { randomBytes } from 'node:crypto';
import {
  SANDBOX_CART_MAX_LINES,
  type SandboxCartAddBody,
  type SandboxCartChangeBody,
  type ValidationIssue,
} from '@tare/contracts';
import { errors } from '../../../errors.js';
import type { Queryable } from '../../../store/db.js';
import { findVariantsByIds } from '../../../store/repositories/catalog.js';
import type { Shop } from '../../../store/repositories/shops.js';
import { addLine, type CartLine, propertyList, unitPrice, variantIdOf } from './cart-lines.js';
import { insertCart, readCartLines, saveCartLines } from './carts-repository.js';

/** A line's quantity is a 32-bit integer on the platforms. */
const MAX_QUANTITY = 2147483647;

export interface Cart {
  token: string;
  lines: CartLine[];
}

export async function createCart(tx: Queryable, shopId: string): Promise<Cart> {
  const token = randomBytes(16).toString('hex');
  await insertCart(tx, shopId, token);
  return { token, lines: [] };
}

/** The cart, locked for the transaction when `forUpdate`; another shop's cart is as unknown (404). */
export async function readCart(tx: Queryable, shopId: string, token: string, forUpdate = false): Promise<Cart> {
  const lines = await readCartLines(tx, shopId, token, forUpdate);
  if (!lines) throw errors.notFound('cart', token);
  return { token, lines };
}

/**
 * Adds items as Shopify's `/cart/add.js` does: each priced from its variant (a measured line by
 * its `_svc_data`, §15), merged into an equal line when the shop merges matching lines. All or
 * nothing: any bad item (unknown variant, repeated property name, a quantity or line count over
 * the limits) is a 400 naming every one, and the cart is left as it was.
 */
export async function addToCart(tx: Queryable, shop: Shop, token: string, body: SandboxCartAddBody): Promise<Cart> {
  const cart = await readCart(tx, shop.id, token, true);
  const ids = body.items.map((item) => variantIdOf(item.id));
  const variants = await findVariantsByIds(tx, shop.id, [...new Set(ids)]);
  const issues: ValidationIssue[] = [];
  let lines = cart.lines;
  body.items.forEach((item, i) => {
    const variant = variants.get(ids[i]!);
    if (!variant) {
      issues.push({ path: `/items/${i}/id`, message: `no variant '${ids[i]}' in this shop` });
      return;
    }
    const properties = propertyList(item.properties);
    if (!properties.ok) {
      issues.push({
        path: `/items/${i}/properties/${properties.index}/name`,
        message: `property '${properties.name}' is given twice`,
      });
      return;
    }
    const added = addLine(
      lines,
      {
        variantId: variant.id,
        productId: variant.productId,
        quantity: item.quantity,
        properties: properties.list,
        price: unitPrice(variant, properties.list, shop.currency),
      },
      shop.mergeMatchingLineItems === true,
    );
    if (added.lines[added.index]!.quantity > MAX_QUANTITY) {
      issues.push({ path: `/items/${i}/quantity`, message: `the line's quantity would exceed ${MAX_QUANTITY}` });
    } else if (added.lines.length > SANDBOX_CART_MAX_LINES) {
      issues.push({ path: `/items/${i}`, message: `a cart holds at most ${SANDBOX_CART_MAX_LINES} lines` });
    } else {
      lines = added.lines;
    }
  });
  if (issues.length) throw errors.validation(issues, 'body');
  await saveCartLines(tx, shop.id, token, lines);
  return { token, lines };
}

/** Sets a line's quantity as `/cart/change.js` does; 0 removes the line. An unknown key is 400. */
export async function changeCart(
  tx: Queryable,
  shopId: string,
  token: string,
  body: SandboxCartChangeBody,
): Promise<Cart> {
  const cart = await readCart(tx, shopId, token, true);
  const index = cart.lines.findIndex((l) => l.key === body.key);
  if (index < 0) {
    throw errors.validation([{ path: '/key', message: `no line with key '${body.key}' in this cart` }], 'body');
  }
  const lines =
    body.quantity === 0
      ? cart.lines.filter((_, i) => i !== index)
      : cart.lines.map((l, i) => (i === index ? { ...l, quantity: body.quantity } : l));
  await saveCartLines(tx, shopId, token, lines);
  return { token, lines };
}
