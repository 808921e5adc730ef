/**
 * The API's shapes as plain interfaces, so the published package carries its own types and
 * nothing from the server's schema library. test/types.test-d.ts proves at type-check time that
 * each one equals the route schema it mirrors (packages/contracts), so they cannot drift.
 */

export type MeasurementType = 'weight' | 'length' | 'area' | 'volume' | 'time';

/** The error codes of the API (PRODUCT.md §3). */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_key_in_use'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'request_timeout'
  | 'headers_too_large'
  | 'idempotency_key_reused'
  | 'addon_inactive'
  | 'unprocessable'
  | 'rate_limited'
  | 'internal_error'
  | 'platform_unavailable'
  | 'service_unavailable';

/** A price per reference quantity (PRODUCT.md §21): `{ amount: '19.20', currency: 'EUR', reference: { value: 1, unit: 'kg' } }`. */
export interface UnitPrice {
  /** Decimal text with the currency's minor digits. */
  amount: string;
  currency: string;
  reference: { value: number; unit: string };
}

export interface Variant {
  id: string;
  unitMeasurement: { unit: string; value: number };
  settings: {
    onlineStore: {
      displayStyle: 'number' | 'pills' | 'dropdown';
      rules?: { min: number; increment: number; defaultValue: number; max: number | null };
      presets?: Array<{ value: number; label?: string; price?: string; unitPrice?: UnitPrice }>;
      /** Area (2) or volume (3) made from lengths the customer states (PRODUCT.md §19). */
      dimensions?: Array<{
        name: string;
        unit: string;
        rules?: { min: number; increment: number; defaultValue: number; max: number | null };
        fixed?: number;
      }>;
      /** 0–100: extra sold for waste; only with `dimensions`. */
      overagePercent?: number;
    };
  };
  /** Absent when the shop has unit pricing off, and for time. */
  unitPrice?: UnitPrice;
  /** The stock item the variant sells from (its stock is the item's); absent for a variant with its own stock. */
  stockItemId?: string;
}

export interface Product {
  id: string;
  measurementType: MeasurementType;
  variants: Variant[];
}

export interface VariantWithProduct extends Variant {
  product: Pick<Product, 'id' | 'measurementType'>;
}

/** `GET /scale-barcodes/{code}`: a scale label read into a variant and its measurement (PRODUCT.md §22). */
export interface ScaleBarcode {
  productId: string;
  variantId: string;
  /** In the variant's unit; a price label's is price ÷ unit price, exact to 9 decimal places. */
  measurement: { value: number; unit: string };
  /** A price label's price, as printed. */
  price?: { amount: string; currency: string };
  derivedFrom: 'weight' | 'price';
}

export interface PaginationMeta {
  nextCursor: string | null;
  prevCursor: string | null;
  hasMore: boolean;
}

export type ProductPageMeta = PaginationMeta;

export interface AppSettings {
  localizedLabels: Record<string, string>;
  mergeMatchingLineItems?: boolean;
}

/** A quantity in one of the variant type's units; `value` is a JSON number, never a string. */
export interface Quantity {
  value: number;
  unit: string;
}

export interface AdjustmentsBody {
  locationId: string;
  /** 1 to 100 entries, one per variant. */
  adjustments: Array<{ variantId: string; delta: Quantity }>;
}

export interface LevelsBody {
  locationId: string;
  /** 1 to 100 entries, one per variant; `quantity.value` ≥ 0. */
  levels: Array<{ variantId: string; quantity: Quantity }>;
}

export interface InventoryWriteData {
  operation: 'adjustment' | 'set';
  locationId: string;
  results: Array<{
    variantId: string;
    status: 'updated';
    previousQuantity: Quantity;
    quantity: Quantity;
  }>;
}

/** `GET /inventory/levels`: 1 to 100 distinct variants at one location. */
export interface InventoryLevelsParams {
  locationId: string;
  /** Sent as the repeated query parameter `variantId`. */
  variantIds: string[];
}

/** One level as Tare holds it, in the variant's unit (`unitMeasurement.unit`). */
export interface InventoryLevel {
  variantId: string;
  locationId: string;
  /** The exact total. */
  quantity: Quantity;
  /** The whole units of `unitMeasurement` Tare projects to the platform. */
  platform: { available: number };
  /** What Tare keeps beyond the whole units: in [0, unitMeasurement.value). */
  fraction: Quantity;
  /** Present when the variant sells from a stock item: `quantity` is then the item's total in the variant's unit. */
  stockItemId?: string;
  /** ISO 8601 (UTC); null when the level was never written (it reads 0). */
  updatedAt: string | null;
}

/** `GET /stock-items/{stockItemId}/levels`. */
export interface StockItemLevelsParams {
  stockItemId: string;
  locationId: string;
}

/** A linked variant's share of a stock item's level. */
export interface StockItemVariantLevel {
  variantId: string;
  unitMeasurement: { value: number; unit: string };
  /** floor(total ÷ the variant's unit measurement): its whole units. */
  platform: { available: number };
  /** What remains of the total beyond those whole units, in the variant's unit. */
  fraction: { value: number; unit: string };
}

/** A stock item's level at one location, in the item's unit, with every linked variant. */
export interface StockItemLevel {
  stockItemId: string;
  title: string;
  locationId: string;
  /** The item's exact total, in the item's unit. */
  quantity: { value: number; unit: string };
  variants: StockItemVariantLevel[];
  /** ISO 8601 (UTC); null when the level was never written (it reads 0). */
  updatedAt: string | null;
}

/** `GET /inventory/ledger`: one level's ledger, newest first. */
export interface InventoryLedgerParams {
  locationId: string;
  variantId: string;
  /** Entries per page, 1–100 (default 50). */
  limit?: number;
  /** A `meta.nextCursor` or `meta.prevCursor` of the same level. */
  cursor?: string;
}

export type LedgerOperation =
  'adjustment' | 'set' | 'import' | 'order_edit' | 'sale' | 'order_cancel' | 'refund' | 'platform_adjustment';

/** What caused a ledger entry: an order, a refund, an API write (its Idempotency-Key), an import, the platform. */
export interface LedgerReference {
  type: 'order' | 'refund' | 'idempotency_key' | 'import' | 'platform';
  id: string | null;
}

/** One change of a level; quantities are JSON numbers in `unit`. */
export interface InventoryLedgerEntry {
  id: string;
  operation: LedgerOperation;
  delta: number;
  quantityBefore: number;
  quantityAfter: number;
  unit: string;
  reference: LedgerReference | null;
  /** The API request that wrote it; null for imports and platform events. */
  requestId: string | null;
  /** In a stock item's ledger only: the variant that caused the entry (null for an import). */
  variantId?: string | null;
  /** ISO 8601 (UTC). */
  createdAt: string;
}

export interface OrderItem {
  lineItemId: string;
  productId: string | null;
  variantId: string | null;
  quantity: number;
  measurement: {
    type: MeasurementType;
    value: number;
    unit: string;
    /** The factors the value was made from, with their names, when the line has them (PRODUCT.md §19). */
    dimensions?: Array<{ value: number; unit: string; name: string }>;
  };
  /** Formatted price per measurement unit, e.g. "$24.00 per kg". */
  unitPrice: string;
}

export interface OrderData {
  id: string;
  items: OrderItem[];
}

export interface OrderEditBody {
  /** 1 to 100 edits. */
  edits: Array<{
    lineItemId: string;
    /** 0 removes the line. */
    quantity?: number;
    /** `value`, or `dimensions` (the factors, PRODUCT.md §19) from which Tare computes it. */
    measurement?: {
      type: MeasurementType;
      value?: number;
      unit: string;
      dimensions?: Array<{ value: number; unit: string; name?: string }>;
    };
    variantId?: string;
  }>;
  notifyCustomer?: boolean;
  staffNote?: string;
}

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
