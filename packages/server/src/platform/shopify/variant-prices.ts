import type { VariantPrice } from '../gateway.js';
import type { ShopifyAdmin } from './admin-client.js';
import { toGid } from './ids.js';
import { PRODUCT_VARIANT_PRICES } from './operations.js';
import { shopifyId } from './webhook-topics.js';

interface PricesAnswer {
  product: {
    variants: {
      nodes: { id: string; price: string }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  } | null;
}

/**
 * The prices of a product's variants on Shopify now, page by page; undefined when Shopify has no
 * such product (deleted since the webhook). Read instead of taken from the products/update
 * payload: deliveries come late and out of order, and only a read says what the price is now.
 */
export async function readShopifyVariantPrices(
  admin: ShopifyAdmin,
  productId: string,
): Promise<VariantPrice[] | undefined> {
  const prices: VariantPrice[] = [];
  let after: string | null = null;
  for (;;) {
    const answer: { data: PricesAnswer } = await admin.request<PricesAnswer>(PRODUCT_VARIANT_PRICES, {
      id: toGid('Product', productId),
      after,
    });
    const product: PricesAnswer['product'] = answer.data.product;
    if (!product) return undefined;
    const { nodes, pageInfo } = product.variants;
    for (const node of nodes) {
      const variantId = shopifyId(node.id);
      if (variantId) prices.push({ variantId, price: node.price });
    }
    if (!pageInfo.hasNextPage || !pageInfo.endCursor) return prices;
    after = pageInfo.endCursor;
  }
}
