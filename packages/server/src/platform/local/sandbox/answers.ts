import type { SandboxCart, SandboxOrder } from '@tare/contracts';
import type { PlatformOrder, PlatformRefund } from '../../gateway.js';
import { type LineProperty, minorUnits } from './cart-lines.js';
import type { Cart } from './carts.js';
import { refundedByLine } from './shop-actions.js';

// What the sandbox answers, in Shopify's words: snake_case fields, properties as an object,
// money as integers in the currency's minor unit (PRODUCT.md §15).

/**
 * An amount as the answer carries it, a JSON integer of minor units, only when that integer is
 * exact (up to `MAX_MINOR_UNITS`): the cart refuses what would pass it (400 at add or change), so
 * an amount past it here is a bug, and failing the request beats answering a rounded or infinite
 * number.
 */
function exactAmount(minor: number): number {
  if (!Number.isSafeInteger(minor)) {
    throw new RangeError(`an amount of ${minor} minor units cannot be answered exactly`);
  }
  return minor;
}

function propertyObject(properties: LineProperty[]): Record<string, string> {
  return Object.fromEntries(properties.map((p) => [p.name, p.value]));
}

/** The cart as `/cart.js` shows it; variant and product ids are JSON numbers there. */
export function cartAnswer(cart: Cart, currency: string): SandboxCart {
  const items = cart.lines.map((line) => {
    const price = exactAmount(minorUnits(line.price, currency));
    return {
      key: line.key,
      variant_id: Number(line.variantId),
      product_id: Number(line.productId),
      quantity: line.quantity,
      properties: propertyObject(line.properties),
      price,
      line_price: exactAmount(price * line.quantity),
    };
  });
  return {
    token: cart.token,
    items,
    item_count: items.reduce((sum, item) => sum + item.quantity, 0),
    total_price: exactAmount(items.reduce((sum, item) => sum + item.line_price, 0)),
    currency,
  };
}

export function refundAnswer(refund: PlatformRefund) {
  return {
    id: refund.id,
    refund_line_items: refund.lines.map((l) => ({
      line_item_id: l.lineItemId,
      quantity: l.quantity,
      restock_type: l.restockType,
    })),
  };
}

/** An order with Shopify's field names; ids stay numeric strings, as in Tare's API. */
export function orderAnswer(order: PlatformOrder, currency: string): SandboxOrder {
  const refunded = refundedByLine(order);
  const lineItems = order.lineItems.map((line) => {
    const price = exactAmount(minorUnits(line.price, currency));
    return {
      id: line.id,
      variant_id: line.variantId,
      product_id: line.productId,
      quantity: line.quantity,
      price,
      line_price: exactAmount(price * line.quantity),
      properties: propertyObject(line.properties),
      fulfilled: line.fulfilled,
      refunded_quantity: refunded.get(line.id) ?? 0,
    };
  });
  return {
    id: order.id,
    name: order.name,
    customer: order.customer ?? null,
    status: order.status,
    location_id: order.locationId,
    line_items: lineItems,
    refunds: order.refunds.map(refundAnswer),
    total_price: exactAmount(lineItems.reduce((sum, line) => sum + line.line_price, 0)),
    currency,
  };
}
