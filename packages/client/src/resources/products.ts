import { send, type RequestOptions, type TransportConfig } from '../transport.js';
import type { PaginationMeta, Product, TareResult, Variant, VariantWithProduct } from '../types.js';

export type ProductResult = TareResult<{ product: Product }, PaginationMeta>;
export type VariantResult = TareResult<{ variant: VariantWithProduct }>;

/** `GET /products/{id}`: the product with one page of variants in catalogue order. */
export class ProductsResource {
  constructor(private readonly config: TransportConfig) {}

  async get(
    productId: string,
    params: { limit?: number; cursor?: string } = {},
    options?: RequestOptions,
  ): Promise<ProductResult> {
    const response = await send(this.config, {
      method: 'GET',
      path: `/products/${encodeURIComponent(productId)}`,
      query: { limit: params.limit, cursor: params.cursor },
      options,
    });
    return { data: response.body.data, meta: response.body.meta, requestId: response.requestId };
  }

  /** Every variant of the product across all pages, in order; fetches the next page lazily. */
  async *variants(
    productId: string,
    params: { limit?: number } = {},
    options?: RequestOptions,
  ): AsyncGenerator<Variant, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.get(productId, { limit: params.limit, cursor }, options);
      yield* page.data.product.variants;
      cursor = page.meta.hasMore && page.meta.nextCursor ? page.meta.nextCursor : undefined;
    } while (cursor !== undefined);
  }
}

/** `GET /products/{productId}/variants/{variantId}`. */
export class VariantsResource {
  constructor(private readonly config: TransportConfig) {}

  async get(productId: string, variantId: string, options?: RequestOptions): Promise<VariantResult> {
    const response = await send(this.config, {
      method: 'GET',
      path: `/products/${encodeURIComponent(productId)}/variants/${encodeURIComponent(variantId)}`,
      options,
    });
    return { data: response.body.data, meta: response.body.meta, requestId: response.requestId };
  }
}
