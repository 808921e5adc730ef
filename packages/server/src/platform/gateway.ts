import type { RestockType } from '../domain/order-bookings.js';
import type { OrderCustomer } from '../domain/order-reference.js';
import type { Queryable } from '../store/db.js';
import type { PlatformKind } from '../store/repositories/shops.js';

export type { OrderCustomer, RestockType };

/** One integer inventory level as the platform sees it. */
export interface PlatformLevel {
  locationId: string;
  variantId: string;
  available: number;
}

export interface PlatformOrder {
  id: string;
  /** The order's name as the platform shows it to the merchant and the customer (`#1001`). */
  name: string;
  /**
   * Who placed it, as far as the platform lets Tare read: null for a guest who left neither name
   * nor e-mail, or when the platform withholds it (Shopify's protected customer data); undefined
   * when the caller did not ask (`readOrder`'s `customer` option).
   */
  customer?: OrderCustomer | null;
  status: 'open' | 'closed' | 'cancelled';
  locationId: string;
  lineItems: PlatformLineItem[];
  createdAt: Date;
  /** Refunds, including the restock a cancellation makes (restock type `cancel`), as on Shopify. */
  refunds: PlatformRefund[];
}

export interface PlatformRefund {
  id: string;
  lines: { lineItemId: string; quantity: number; restockType: RestockType }[];
}

/** What Tare asks the platform to show for one level (see `projectLevels`). */
export interface LevelProjection extends PlatformLevel {
  /**
   * The whole units Tare believes the platform shows now; the platform is written only while it
   * still shows them. `null` writes whatever the platform shows (a level Tare never projected,
   * or an import, which is the merchant's own statement of stock).
   */
  expected: number | null;
}

export interface ProjectionResult {
  /** Levels the platform now shows as asked (including those it already showed). */
  projected: PlatformLevel[];
  /** Levels left alone because the platform showed something else: its figure, for §14's rules. */
  moved: PlatformLevel[];
}

export interface PlatformLineItem {
  id: string;
  productId: string | null;
  variantId: string | null;
  quantity: number;
  /** Unit price as charged: exact decimal text in the shop's currency. */
  price: string;
  fulfilled: boolean;
  properties: { name: string; value: string }[];
}

/** A variant's price on the platform: exact decimal text in the shop's currency. */
export interface VariantPrice {
  variantId: string;
  price: string;
}

/** A change to one line: its new state, or `remove` (quantity 0 removes the line). */
export type LineItemChange =
  | { lineItemId: string; remove: true }
  | {
      lineItemId: string;
      remove?: false;
      variantId: string | null;
      quantity: number;
      price: string;
      properties: PlatformLineItem['properties'];
    };

/**
 * What the caller already read of the shop in this transaction: its platform, so that routing a
 * call to the shop's adapter needs no query of its own. Adapters ignore it.
 */
export interface KnownShop {
  platform?: PlatformKind | null;
}

/**
 * The port through which Tare writes the platform's integer inventory and reads and edits its
 * orders. `tx` lets the embedded platform write in Tare's own transaction; remote adapters
 * ignore it.
 */
export interface PlatformGateway {
  readonly name: string;
  /**
   * Makes the platform show these whole-unit levels, each only if the platform still shows what
   * Tare expects (compare-and-set), so that no change made on the platform is overwritten
   * unseen: those come back in `moved`, untouched. It changes nothing outside `tx` (a remote
   * platform's share is queued in it): a retried inventory write may run it again and roll it
   * back (`runIdempotent`'s `effectsInTransaction`).
   */
  projectLevels(
    tx: Queryable,
    shopId: string,
    levels: LevelProjection[],
    /** What caused the change (`gid://tare/…`), for platforms that record a reference document. */
    cause?: string,
    shop?: KnownShop,
  ): Promise<ProjectionResult>;
  /** The platform's whole units for these levels (a level it does not stock reads 0). */
  readLevels(tx: Queryable, shopId: string, levels: Omit<PlatformLevel, 'available'>[]): Promise<PlatformLevel[]>;
  /** Ids of the orders created or changed on the platform since `since` (all when null), oldest first. */
  ordersChangedSince(tx: Queryable, shopId: string, since: Date | null): Promise<string[]>;
  /**
   * The order, locked against concurrent edits for `tx` when `forUpdate`; undefined if unknown.
   * With `customer`, also who placed it (a remote platform may spend a call on it).
   */
  readOrder(
    tx: Queryable,
    shopId: string,
    orderId: string,
    options?: { forUpdate?: boolean; customer?: boolean } & KnownShop,
  ): Promise<PlatformOrder | undefined>;
  /**
   * The prices of a product's variants as the merchant set them on the platform (exact decimal
   * text, per unit measurement), on platforms where prices are edited (Shopify); undefined for a
   * product the platform does not have. The embedded platform's prices are Tare's own: it has none.
   */
  readVariantPrices?(tx: Queryable, shopId: string, productId: string): Promise<VariantPrice[] | undefined>;
  /** Applies line changes as one edit; adapters that can pass `notifyCustomer` and `staffNote` on do so. */
  editOrder(
    tx: Queryable,
    shopId: string,
    orderId: string,
    changes: LineItemChange[],
    options: { notifyCustomer: boolean; staffNote?: string },
  ): Promise<void>;
}

/** The platform cannot be reached now (an outage, throttling, a revoked token): try again later. */
export class PlatformUnavailableError extends Error {
  /** When the platform said it could take the call again (throttling, Retry-After). */
  readonly retryAfterMs?: number;
  constructor(message: string, options?: ErrorOptions & { retryAfterMs?: number }) {
    super(message, options);
    this.name = 'PlatformUnavailableError';
    this.retryAfterMs = options?.retryAfterMs;
  }
}
