/**
 * How a merchant tells orders apart, as Shopify's admin shows them: the order's name on the
 * platform (`#1001`) and who placed it. The platform port reads it, the store keeps it for the
 * admin's list, and the admin shows it; none of it is in the public API.
 */

/** The customer of an order: a name, an e-mail, or both (never neither: that is no customer). */
export interface OrderCustomer {
  name: string | null;
  email: string | null;
}

export interface OrderReference {
  /** The order's name as the platform shows it to the merchant and the customer (`#1001`). */
  name: string;
  /** Null for a guest who left neither name nor e-mail, or when the platform withholds them. */
  customer: OrderCustomer | null;
}

/**
 * The customer as the admin writes it: `Ada Lovelace <ada@example.com>`, the name or the e-mail
 * alone when only one is known, and `No customer` when neither is.
 */
export function describeCustomer(customer: OrderCustomer | null | undefined): string {
  const name = customer?.name ?? null;
  const email = customer?.email ?? null;
  if (name !== null && email !== null && name !== email) return `${name} <${email}>`;
  return name ?? email ?? 'No customer';
}
