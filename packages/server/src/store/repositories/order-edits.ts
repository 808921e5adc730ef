import type { Queryable } from '../db.js';

/** Appends one applied PATCH to the order's edit history. */
export async function insertOrderEdit(
  db: Queryable,
  edit: {
    shopId: string;
    orderId: string;
    apiKeyId: string;
    requestId: string;
    edits: unknown;
    notifyCustomer: boolean;
    staffNote: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO order_edits (shop_id, order_id, api_key_id, request_id, edits, notify_customer, staff_note)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      edit.shopId,
      edit.orderId,
      edit.apiKeyId,
      edit.requestId,
      JSON.stringify(edit.edits),
      edit.notifyCustomer,
      edit.staffNote,
    ],
  );
}
