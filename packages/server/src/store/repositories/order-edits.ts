import type { Queryable } from '../db.js';

/** Appends one applied PATCH to the order's edit history. */
export async function insertOrderEdit(
  db: Queryable,
  edit: {
    shopId: string;
    orderId: string;
    /** Null for an edit made by staff in the admin. */
    apiKeyId: string | null;
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

export interface StoredOrderEdit {
  id: string;
  apiKeyId: string | null;
  requestId: string;
  edits: unknown[];
  notifyCustomer: boolean;
  staffNote: string | null;
  createdAt: Date;
}

/** The order's edit history, newest first (at most `limit` entries). */
export async function listOrderEdits(
  db: Queryable,
  shopId: string,
  orderId: string,
  limit: number,
): Promise<StoredOrderEdit[]> {
  const { rows } = await db.query<{
    id: string;
    api_key_id: string | null;
    request_id: string;
    edits: unknown[];
    notify_customer: boolean;
    staff_note: string | null;
    created_at: Date;
  }>(
    `SELECT id, api_key_id, request_id, edits, notify_customer, staff_note, created_at FROM order_edits
     WHERE shop_id = $1 AND order_id = $2 ORDER BY id DESC LIMIT $3`,
    [shopId, orderId, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    apiKeyId: row.api_key_id,
    requestId: row.request_id,
    edits: row.edits,
    notifyCustomer: row.notify_customer,
    staffNote: row.staff_note,
    createdAt: row.created_at,
  }));
}
