import type { SandboxCart, SandboxCartAddBody } from '@tare/contracts';
import { propertyList, sameProperties, variantIdOf } from '../cart-lines.js';

/** What the storefront names a line by: its product's and variant's titles. */
export type LineTitles = Map<string, { productTitle: string; variantTitle: string }>;

/**
 * The sandbox cart as Shopify's `/cart.js` shows it: its fields (money in minor units, numeric
 * ids) plus the ones a theme reads to show a line — `id`, titles, `url`, the original and final
 * prices (equal: the sandbox has no discounts) — and the cart's subtotal and discount.
 */
export function storefrontCart(cart: SandboxCart, titles: LineTitles, storefront: string) {
  const items = cart.items.map((item) => storefrontItem(item, titles, storefront));
  return {
    token: cart.token,
    note: null,
    attributes: {},
    original_total_price: cart.total_price,
    total_price: cart.total_price,
    total_discount: 0,
    total_weight: 0,
    item_count: cart.item_count,
    items,
    requires_shipping: false,
    currency: cart.currency,
    items_subtotal_price: cart.total_price,
    cart_level_discount_applications: [],
  };
}

function storefrontItem(item: SandboxCart['items'][number], titles: LineTitles, storefront: string) {
  const names = titles.get(String(item.variant_id));
  const productTitle = names?.productTitle ?? '';
  const variantTitle = names?.variantTitle ?? '';
  return {
    id: item.variant_id,
    key: item.key,
    variant_id: item.variant_id,
    product_id: item.product_id,
    quantity: item.quantity,
    properties: item.properties,
    title: variantTitle ? `${productTitle} - ${variantTitle}` : productTitle,
    product_title: productTitle,
    variant_title: variantTitle || null,
    price: item.price,
    original_price: item.price,
    final_price: item.price,
    line_price: item.line_price,
    original_line_price: item.line_price,
    final_line_price: item.line_price,
    total_discount: 0,
    discounts: [],
    url: `${storefront}products/${item.product_id}?variant=${item.variant_id}`,
    requires_shipping: false,
  };
}

/** Whether one of the added items went to this line: its variant, with the same properties. */
export function addedTo(body: SandboxCartAddBody, item: { variant_id: number; properties: Record<string, string> }) {
  const line = Object.entries(item.properties).map(([name, value]) => ({ name, value }));
  return body.items.some((added) => {
    const properties = propertyList(added.properties);
    return variantIdOf(added.id) === String(item.variant_id) && properties.ok && sameProperties(properties.list, line);
  });
}
