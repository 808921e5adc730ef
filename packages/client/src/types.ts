import type { OrderItem, PaginationMeta, Product, Variant } from '@tare/contracts';

export type {
  AdjustmentsBody,
  LevelsBody,
  OrderEditBody,
  OrderItem,
  PaginationMeta,
  Product,
  Variant,
} from '@tare/contracts';

/** What every method resolves to: the envelope's data and meta, and the answer's request id. */
export interface TareResult<Data, Meta = Record<string, never>> {
  data: Data;
  meta: Meta;
  /** Equals the `X-Request-Id` header; quote it when reporting a problem. */
  requestId: string;
}

/** A write's result; `replayed` is true when the server answered from its idempotency store. */
export interface TareWriteResult<Data, Meta = Record<string, never>> extends TareResult<Data, Meta> {
  replayed: boolean;
}

export interface AppSettings {
  localizedLabels: Record<string, string>;
  mergeMatchingLineItems?: boolean;
}

export interface VariantWithProduct extends Variant {
  product: Pick<Product, 'id' | 'measurementType'>;
}

export interface InventoryQuantityResult {
  value: number;
  unit: string;
}

export interface InventoryWriteData {
  operation: 'adjustment' | 'set';
  locationId: string;
  results: Array<{
    variantId: string;
    status: 'updated';
    previousQuantity: InventoryQuantityResult;
    quantity: InventoryQuantityResult;
  }>;
}

export interface OrderData {
  id: string;
  items: OrderItem[];
}

export type ProductPageMeta = PaginationMeta;
