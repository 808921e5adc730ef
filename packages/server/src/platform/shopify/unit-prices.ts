import type { ShopifyUnitPriceEntry } from '../../domain/shopify-unit-price.js';
import type { ShopifyAdmin } from './admin-client.js';
import { toGid } from './ids.js';
import type { MetafieldOutcome, MetafieldWrite } from './metafields.js';
import { UPDATE_VARIANT_UNIT_PRICES } from './operations.js';

interface BulkUpdateAnswer {
  productVariantsBulkUpdate: {
    userErrors: { code: string | null; field: string[] | null; message: string }[];
  };
}

/**
 * Writes each product's unit price document (a `Product` entry of the metafield outbox: its
 * variants' `unitPriceMeasurement` and `showUnitPrice`) with one productVariantsBulkUpdate per
 * product, since the mutation takes one product's variants. Setting the same values again is
 * harmless, so a retry needs no key. A user error refuses the product's document (the mutation
 * updated nothing); the admin client's errors (throttled, unavailable…) are thrown.
 */
export async function writeShopifyUnitPrices(
  admin: ShopifyAdmin,
  writes: MetafieldWrite[],
): Promise<MetafieldOutcome[]> {
  const outcomes: MetafieldOutcome[] = [];
  for (const write of writes) {
    const { variants } = write.document as { variants: ShopifyUnitPriceEntry[] };
    const { data } = await admin.request<BulkUpdateAnswer>(UPDATE_VARIANT_UNIT_PRICES, {
      productId: toGid('Product', write.ownerId),
      variants: variants.map((entry) => ({ ...entry, id: toGid('ProductVariant', entry.id) })),
    });
    const errors = data.productVariantsBulkUpdate.userErrors;
    outcomes.push(
      errors.length === 0
        ? { status: 'written' }
        : {
            status: 'refused',
            error: errors.map((e) => `${e.code ?? 'INVALID'}: ${e.message} (${(e.field ?? []).join('.')})`).join('; '),
          },
    );
  }
  return outcomes;
}
