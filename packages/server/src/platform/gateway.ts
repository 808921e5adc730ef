import type { Queryable } from '../store/db.js';

/** One integer inventory level as the platform sees it. */
export interface PlatformLevel {
  locationId: string;
  variantId: string;
  available: number;
}

export interface PlatformOrder {
  id: string;
  status: 'open' | 'closed' | 'cancelled';
  locationId: string;
  lineItems: PlatformLineItem[];
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
 * The port through which Tare writes the platform's integer inventory and reads and edits its
 * orders. `tx` lets the embedded platform write in Tare's own transaction; remote adapters
 * ignore it.
 */
export interface PlatformGateway {
  readonly name: string;
  /**
   * Makes the platform show these whole-unit levels; levels it already shows are left alone.
   * An adapter that cannot write atomically reads, then writes with compare-and-set, and throws
   * PlatformUnavailableError when a level moved in between, so that no concurrent change on the
   * platform is overwritten unseen. Resolves to how many levels changed.
   */
  projectLevels(tx: Queryable, shopId: string, levels: PlatformLevel[]): Promise<number>;
  /** The order, locked against concurrent edits for `tx` when `forUpdate`; undefined if unknown. */
  readOrder(
    tx: Queryable,
    shopId: string,
    orderId: string,
    options?: { forUpdate?: boolean },
  ): Promise<PlatformOrder | undefined>;
  /** Applies line changes as one edit; adapters that can pass `notifyCustomer` and `staffNote` on do so. */
  editOrder(
    tx: Queryable,
    shopId: string,
    orderId: string,
    changes: LineItemChange[],
    options: { notifyCustomer: boolean; staffNote?: string },
  ): Promise<void>;
}

export class PlatformUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PlatformUnavailableError';
  }
}
