/**
 * Everything the fake Shopify store holds, in memory: catalog, inventory levels, orders with their
 * refunds, order edits in progress, idempotency records and webhook subscriptions. Ids are
 * Shopify's numeric ids as strings. Whole units only: Shopify's quantities are integers.
 */
export interface FakeLocation {
  id: string;
  name: string;
}

export interface FakeProduct {
  id: string;
  title: string;
  handle: string;
  variantIds: string[];
  createdAt: number;
  updatedAt: number;
}

export interface FakeVariant {
  id: string;
  productId: string;
  title: string;
  price: string;
  sku: string | null;
  inventoryItemId: string;
  createdAt: number;
  updatedAt: number;
  /** Set by productVariantsBulkUpdate; absent until then. */
  compareAtPrice?: string | null;
  showUnitPrice?: boolean;
  unitPriceMeasurement?: FakeUnitPriceMeasurement | null;
}

export interface FakeUnitPriceMeasurement {
  /** Shopify's, from the quantity unit (not an input field). */
  measuredType?: string;
  quantityValue: number;
  quantityUnit: string | null;
  referenceValue: number;
  referenceUnit: string | null;
}

/** A metafield as Shopify keeps it: `namespace` fully qualified (`$app:tare` → `app--{appId}--tare`). */
export interface FakeMetafield {
  id: string;
  /** The owner's gid (`gid://shopify/ProductVariant/2001`, `gid://shopify/Shop/1`). */
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * A metafield definition (metafieldDefinitionCreate): `namespace` fully qualified as on metafields.
 * Its `storefront` access decides whether the storefront (Liquid, Storefront API) reads the
 * metafields it defines.
 */
export interface FakeMetafieldDefinition {
  id: string;
  ownerType: 'PRODUCTVARIANT' | 'SHOP';
  namespace: string;
  key: string;
  name: string;
  description: string | null;
  type: string;
  access: { admin: string | null; storefront: 'NONE' | 'PUBLIC_READ'; customerAccount: string };
}

/** A stocked item at a location. `committed` holds units of unfulfilled orders (on_hand = available + committed). */
export interface FakeLevel {
  inventoryItemId: string;
  locationId: string;
  available: number;
  committed: number;
  createdAt: number;
  updatedAt: number;
}

export interface FakeAttribute {
  key: string;
  value: string | null;
}

export interface FakeLine {
  id: string;
  variantId: string | null;
  productId: string | null;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  /** Units ordered at first; `currentQuantity` after edits and refunds. */
  quantity: number;
  currentQuantity: number;
  price: string;
  customAttributes: FakeAttribute[];
}

export type RestockType = 'CANCEL' | 'LEGACY_RESTOCK' | 'NO_RESTOCK' | 'RETURN';

export interface FakeRefundLine {
  id: string;
  lineItemId: string;
  quantity: number;
  restockType: RestockType;
  locationId: string | null;
}

export interface FakeRefund {
  id: string;
  orderId: string;
  createdAt: number;
  note: string | null;
  lines: FakeRefundLine[];
}

/** A customer account of the shop (https://shopify.dev/docs/api/admin-graphql/2026-04/objects/Customer). */
export interface FakeCustomer {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

export interface FakeOrder {
  id: string;
  name: string;
  /** The e-mail the checkout was given (Order.email); null for a guest who gave none. */
  email: string | null;
  /** Null for a checkout without a customer account (a guest). */
  customer: FakeCustomer | null;
  locationId: string;
  fulfillmentOrderId: string;
  createdAt: number;
  updatedAt: number;
  cancelledAt: number | null;
  cancelReason: string | null;
  closedAt: number | null;
  lines: FakeLine[];
  refundIds: string[];
}

export interface FakeInventoryChange {
  name: string;
  delta: number;
  quantityAfterChange: number;
  inventoryItemId: string;
  locationId: string;
}

export interface FakeAdjustmentGroup {
  id: string;
  createdAt: number;
  reason: string;
  referenceDocumentUri: string | null;
  changes: FakeInventoryChange[];
}

export interface StagedDiscount {
  id: string;
  lineId: string;
  description: string;
  value: { amount: string; currencyCode: string } | { percentage: number };
}

/** An order edit between orderEditBegin and orderEditCommit; nothing reaches the order before commit. */
export interface FakeOrderEdit {
  id: string;
  sessionId: string;
  orderId: string;
  committed: boolean;
  quantities: Map<string, { quantity: number; restock: boolean }>;
  added: { line: FakeLine; locationId: string }[];
  discounts: StagedDiscount[];
}

/** A function registered on the shop with cartTransformCreate. */
export interface FakeCartTransform {
  id: string;
  functionId: string;
  blockOnFailure: boolean;
}

/** A function of the app deployed with `shopify app deploy`: its id and the API it implements. */
export interface FakeDeployedFunction {
  id: string;
  apiType: 'cart_transform' | 'discount' | 'delivery_customization';
}

export interface FakeWebhookSubscription {
  id: string;
  topic: string;
  uri: string;
  format: 'JSON' | 'XML';
  filter: string | null;
  includeFields: string[];
  createdAt: number;
  updatedAt: number;
}

export interface IdempotencyRecord {
  fingerprint: string;
  payload: unknown;
}

/** Called whenever a level's figures change, with what caused it (webhooks follow from it). */
export type LevelListener = (level: FakeLevel) => void;

export class FakeStore {
  readonly locations = new Map<string, FakeLocation>();
  readonly products = new Map<string, FakeProduct>();
  readonly variants = new Map<string, FakeVariant>();
  readonly levels = new Map<string, FakeLevel>();
  readonly orders = new Map<string, FakeOrder>();
  readonly refunds = new Map<string, FakeRefund>();
  readonly adjustmentGroups = new Map<string, FakeAdjustmentGroup>();
  readonly orderEdits = new Map<string, FakeOrderEdit>();
  readonly webhookSubscriptions = new Map<string, FakeWebhookSubscription>();
  readonly idempotency = new Map<string, IdempotencyRecord>();
  /** By `${ownerId}|${namespace}|${key}`. */
  readonly metafields = new Map<string, FakeMetafield>();
  readonly cartTransforms = new Map<string, FakeCartTransform>();
  /** By `${ownerType}|${namespace}|${key}`, the namespace fully qualified. */
  readonly metafieldDefinitions = new Map<string, FakeMetafieldDefinition>();
  /** The app's deployed functions by handle: Tare's is deployed unless a test removes it. */
  readonly deployedFunctions = new Map<string, FakeDeployedFunction>([
    ['tare-cart-transform', { id: '01JTARE0CART0TRANSFORM0FN00', apiType: 'cart_transform' }],
  ]);
  /** What `shop.features.cartTransform.eligibleOperations` answers: a standard plan cannot update lines. */
  cartTransform = { expandOperation: true, mergeOperation: true, updateOperation: false };
  /**
   * Whether the app may read protected customer data of level 2 (names, e-mails): an approved
   * public app, or a custom app on a store on the Shopify plan or above. Without it, Shopify
   * answers those fields with ACCESS_DENIED (https://shopify.dev/docs/apps/launch/protected-customer-data).
   */
  protectedCustomerData = true;
  /** The calling app's API client id, which its `$app` namespaces resolve to. */
  readonly appId = '3141592';
  private counter = 900_000_000;
  private orderNumber = 1000;
  levelListener: LevelListener = () => {};

  constructor(
    readonly shop: { domain: string; name: string; currency: string },
    readonly now: () => number,
  ) {}

  nextId(): string {
    this.counter += 1;
    return String(this.counter);
  }

  nextOrderName(): string {
    this.orderNumber += 1;
    return `#${this.orderNumber}`;
  }

  variantOfItem(inventoryItemId: string): FakeVariant | undefined {
    for (const variant of this.variants.values()) if (variant.inventoryItemId === inventoryItemId) return variant;
    return undefined;
  }

  level(inventoryItemId: string, locationId: string): FakeLevel | undefined {
    return this.levels.get(`${inventoryItemId}@${locationId}`);
  }

  /** The level, stocking the item at the location first if it was not (as a merchant does in the admin). */
  stock(inventoryItemId: string, locationId: string): FakeLevel {
    const existing = this.level(inventoryItemId, locationId);
    if (existing) return existing;
    const at = this.now();
    const level = { inventoryItemId, locationId, available: 0, committed: 0, createdAt: at, updatedAt: at };
    this.levels.set(`${inventoryItemId}@${locationId}`, level);
    return level;
  }

  /** Moves a level's `available` (and `committed`) by whole units and tells the listener. */
  moveLevel(level: FakeLevel, change: { available?: number; committed?: number }): void {
    level.available += change.available ?? 0;
    level.committed += change.committed ?? 0;
    level.updatedAt = this.now();
    this.levelListener(level);
  }

  /** A variant's level at a location, stocking it if needed. */
  variantLevel(variantId: string, locationId: string): FakeLevel {
    const variant = this.variants.get(variantId);
    if (!variant) throw new Error(`The fake Shopify has no variant ${variantId}`);
    if (!this.locations.has(locationId)) throw new Error(`The fake Shopify has no location ${locationId}`);
    return this.stock(variant.inventoryItemId, locationId);
  }

  /** `$app` and `$app:x` as Shopify resolves them for the calling app; other namespaces as given. */
  qualifiedNamespace(namespace: string): string {
    if (namespace === '$app') return `app--${this.appId}`;
    return namespace.startsWith('$app:') ? `app--${this.appId}--${namespace.slice(5)}` : namespace;
  }

  metafield(ownerId: string, namespace: string, key: string): FakeMetafield | undefined {
    return this.metafields.get(`${ownerId}|${this.qualifiedNamespace(namespace)}|${key}`);
  }

  metafieldDefinition(ownerType: string, namespace: string, key: string): FakeMetafieldDefinition | undefined {
    return this.metafieldDefinitions.get(`${ownerType}|${this.qualifiedNamespace(namespace)}|${key}`);
  }

  touchOrder(order: FakeOrder): void {
    // Shopify's updatedAt moves on every change; two changes in one millisecond still order.
    order.updatedAt = Math.max(this.now(), order.updatedAt + 1);
  }
}
