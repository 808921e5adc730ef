import type { InventoryLedgerEntry } from '@tare/contracts';
import type { Actor } from '../../domain/actor.js';

type Operation = InventoryLedgerEntry['operation'];
type Reference = InventoryLedgerEntry['reference'];

/** A ledger operation as the merchant says it (the API keeps its codes). */
export const OPERATION_NAMES: Record<Operation, string> = {
  sale: 'Sale',
  order_edit: 'Order edit',
  order_cancel: 'Cancelled order',
  refund: 'Refund',
  platform_adjustment: 'Typed on the platform',
  adjustment: 'Adjustment',
  set: 'Set',
  import: 'Import',
};

// Every field is set, even to null: an Eta partial reads a missing one from the page's data.
/** A cause in words, with the admin page it leads to and, where the words leave it out, its id. */
export interface ShownCause {
  text: string;
  href: string | null;
  title: string | null;
}

const cause = (text: string, href: string | null = null, title: string | null = null): ShownCause => ({
  text,
  href,
  title,
});
const orderPage = (orderId: string) => `/admin/orders/${encodeURIComponent(orderId)}`;

/**
 * A ledger entry's cause: the order (a link to its page), the refund (a link to its order's
 * page, found in `refundOrders`), an admin form, an API write (by the client's own key), an
 * import, or a change on the platform (its event id, meaningless to a merchant, kept in `title`).
 */
export function describeCause(
  reference: Reference | undefined,
  actor: Actor | null | undefined,
  refundOrders: ReadonlyMap<string, string> = new Map(),
): ShownCause {
  if (!reference) return cause('—');
  const id = reference.id ?? '';
  switch (reference.type) {
    case 'order':
      return cause(`Order ${id}`, orderPage(id));
    case 'refund': {
      const orderId = refundOrders.get(id);
      return orderId
        ? cause(`Refund ${id} of order ${orderId}`, `${orderPage(orderId)}#bookings-heading`)
        : cause(`Refund ${id}`);
    }
    case 'import':
      return cause('Import');
    case 'platform':
      return cause('Change on the platform', null, id ? `Platform event ${id}` : null);
    case 'idempotency_key':
      // Told apart by who made the write, never by its key (an API client chooses its keys).
      if (actor?.type === 'staff') return cause('Admin');
      return cause(actor?.type === 'api_key' ? `API write ${id}` : `Write ${id}`);
  }
}
