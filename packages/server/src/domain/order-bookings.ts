import { Dec } from './decimal.js';
import { consumption } from './order-lines.js';

/** How a refunded line's units go back to stock, as Shopify names it. */
export type RestockType = 'no_restock' | 'cancel' | 'return';

/**
 * Why stock moved for an order line: `sale` takes it off; `cancel` (a cancellation's restock)
 * and `refund:<id>` (a refund's restock) give it back.
 */
export type BookingCause = 'sale' | 'cancel' | `refund:${string}`;

/** What an order line takes off or gives back, for one variant and cause. */
export interface Booking {
  lineItemId: string;
  variantId: string;
  cause: BookingCause;
  /** Exact, in the variant's inventory unit, always ≥ 0 (the cause says which way it goes). */
  amount: Dec;
  /** The platform's own whole-unit move for the same cause (units sold or restocked). */
  units: number;
}

/** A measured line as the booking rules need it: its per-unit measure in its variant's unit. */
export interface MeasuredLine {
  lineItemId: string;
  variantId: string;
  quantity: number;
  /** `dimensions[0].value` converted exactly to the variant's inventory unit. */
  perUnit: Dec;
}

export interface RefundLine {
  refundId: string;
  lineItemId: string;
  quantity: number;
  restockType: RestockType;
}

/**
 * What Tare should have booked for an order as the platform now shows it (PRODUCT.md §14): each
 * measured line sells `perUnit × quantity`; restocked refund lines give `perUnit × quantity`
 * back, a cancellation's restock under `cancel`, any other under its refund. `no_restock`
 * gives nothing back. The result depends only on the order's state, never on the order in
 * which its events arrived.
 *
 * @example targetBookings([{ lineItemId: '1', variantId: '7', quantity: 2, perUnit: new Dec('1.25') }], [])
 *   // [{ lineItemId: '1', variantId: '7', cause: 'sale', amount: 2.5, units: 2 }]
 */
export function targetBookings(lines: MeasuredLine[], refunds: RefundLine[]): Booking[] {
  const bookings = new Map<string, Booking>();
  const add = (line: MeasuredLine, cause: BookingCause, quantity: number) => {
    const key = `${line.lineItemId}\u0000${line.variantId}\u0000${cause}`;
    const found = bookings.get(key);
    const amount = consumption(quantity, line.perUnit);
    if (found) {
      found.amount = found.amount.plus(amount);
      found.units += quantity;
    } else {
      bookings.set(key, { lineItemId: line.lineItemId, variantId: line.variantId, cause, amount, units: quantity });
    }
  };
  const byId = new Map(lines.map((l) => [l.lineItemId, l]));
  for (const line of lines) add(line, 'sale', line.quantity);
  for (const refund of refunds) {
    const line = byId.get(refund.lineItemId);
    if (!line || refund.restockType === 'no_restock' || refund.quantity <= 0) continue;
    add(line, refund.restockType === 'cancel' ? 'cancel' : `refund:${refund.refundId}`, refund.quantity);
  }
  return [...bookings.values()];
}

/** A booking's key: one row per line, variant and cause. */
export function bookingKey(b: Pick<Booking, 'lineItemId' | 'variantId' | 'cause'>): string {
  return `${b.lineItemId}\u0000${b.variantId}\u0000${b.cause}`;
}

/** How a booking moves stock: a sale takes (−1), a restock gives back (+1). */
export function stockSign(cause: BookingCause): 1 | -1 {
  return cause === 'sale' ? -1 : 1;
}
