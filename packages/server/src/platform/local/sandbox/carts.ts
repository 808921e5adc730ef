import { randomBytes } from 'node:crypto';
import {
  SANDBOX_CART_MAX_LINES,
  type SandboxCartAddBody,
  type SandboxCartChangeBody,
  type ValidationIssue,
} from '@tare/contracts';
import { Dec } from '../../../domain/decimal.js';
import { errors } from '../../../errors.js';
import type { Queryable } from '../../../store/db.js';
import { findVariantsByIds } from '../../../store/repositories/catalog.js';
import type { Shop } from '../../../store/repositories/shops.js';
import {
  addLine,
  type CartLine,
  inexactAmount,
  inexactMeasure,
  largestAmount,
  linePriceMinor,
  propertyList,
  unitPrice,
  variantIdOf,
} from './cart-lines.js';
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
 * the limits, an amount the answer could not carry exactly) is a 400 naming every one, and the
 * cart is left as it was.
 */
export async function addToCart(tx: Queryable, shop: Shop, token: string, body: SandboxCartAddBody): Promise<Cart> {
  const cart = await readCart(tx, shop.id, token, true);
  const ids = body.items.map((item) => variantIdOf(item.id));
  const variants = await findVariantsByIds(tx, shop.id, [...new Set(ids)]);
  const issues: ValidationIssue[] = [];
  let lines = cart.lines;
  // The accepted lines' total in minor units, kept item by item rather than summed again per item.
  let total = lines.reduce((sum, line) => sum.plus(linePriceMinor(line, shop.currency)), new Dec(0));
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
    // Merged into an accepted line, the item replaces that line's price in the total.
    const merged = added.index < lines.length;
    const others = merged ? total.minus(linePriceMinor(lines[added.index]!, shop.currency)) : total;
    const inexact = inexactAmount(added.lines, added.index, shop.currency, others);
    const inexactMeasurement = inexactMeasure(variant, properties.list);
    if (added.lines[added.index]!.quantity > MAX_QUANTITY) {
      issues.push({ path: `/items/${i}/quantity`, message: `the line's quantity would exceed ${MAX_QUANTITY}` });
    } else if (inexactMeasurement) {
      issues.push({ path: pricedBy(item, i), message: `Tare cannot book this measurement: ${inexactMeasurement}` });
    } else if (added.lines.length > SANDBOX_CART_MAX_LINES) {
      issues.push({ path: `/items/${i}`, message: `a cart holds at most ${SANDBOX_CART_MAX_LINES} lines` });
    } else if (inexact) {
      const path =
        inexact === 'price' ? pricedBy(item, i) : `/items/${i}${inexact === 'line_price' ? '/quantity' : ''}`;
      issues.push({ path, message: tooMuch(inexact, shop.currency) });
    } else {
      lines = added.lines;
      total = others.plus(linePriceMinor(lines[added.index]!, shop.currency));
    }
  });
  if (issues.length) throw errors.validation(issues, 'body');
  await saveCartLines(tx, shop.id, token, lines);
  return { token, lines };
}

/** Where an item's price comes from: its `_svc_data` property when it has one, else its variant. */
function pricedBy(item: SandboxCartAddBody['items'][number], i: number): string {
  const { properties } = item;
  if (Array.isArray(properties)) {
    const k = properties.findIndex((p) => p.name === '_svc_data');
    if (k >= 0) return `/items/${i}/properties/${k}/value`;
  } else if (properties && Object.hasOwn(properties, '_svc_data')) {
    return `/items/${i}/properties/_svc_data`;
  }
  return `/items/${i}/id`;
}

function tooMuch(amount: 'price' | 'line_price' | 'total_price', currency: string): string {
  const what = {
    price: "the line's unit price",
    line_price: "the line's price (unit price × quantity)",
    total_price: "the cart's total",
  }[amount];
  return `${what} would be more than ${largestAmount(currency)}, the most the cart can show exactly`;
}

/** A change naming a line the cart does not hold (400 at `/key`). */
export const noLineWithKey = (key: string) =>
  errors.validation([{ path: '/key', message: `no line with key '${key}' in this cart` }], 'body');

/**
 * Sets a line's quantity as `/cart/change.js` does; 0 removes the line. An unknown key, or a
 * quantity that would take the line's price or the cart's total past what the answer carries
 * exactly, is 400 and the cart is left as it was.
 */
export async function changeCart(tx: Queryable, shop: Shop, token: string, body: SandboxCartChangeBody): Promise<Cart> {
  const cart = await readCart(tx, shop.id, token, true);
  const index = cart.lines.findIndex((l) => l.key === body.key);
  if (index < 0) throw noLineWithKey(body.key);
  if (body.quantity === 0) {
    const lines = cart.lines.filter((_, i) => i !== index);
    await saveCartLines(tx, shop.id, token, lines);
    return { token, lines };
  }
  const lines = cart.lines.map((l, i) => (i === index ? { ...l, quantity: body.quantity } : l));
  const inexact = inexactAmount(lines, index, shop.currency);
  if (inexact) throw errors.validation([{ path: '/quantity', message: tooMuch(inexact, shop.currency) }], 'body');
  await saveCartLines(tx, shop.id, token, lines);
  return { token, lines };
}
