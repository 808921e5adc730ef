import { type Actor, actorColumns, actorFromColumns } from '../../domain/actor.js';
import type { Queryable } from '../db.js';

/** Appends one applied PATCH to the order's edit history. */
export async function insertOrderEdit(
  db: Queryable,
  edit: {
    shopId: string;
    orderId: string;
    /** The API key or the staff member that made the edit. */
    actor: Extract<Actor, { type: 'api_key' | 'staff' }>;
    requestId: string;
    edits: unknown;
    notifyCustomer: boolean;
    staffNote: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO order_edits (shop_id, order_id, api_key_id, request_id, edits, notify_customer, staff_note,
       actor_type, actor_id, actor_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      edit.shopId,
      edit.orderId,
      edit.actor.type === 'api_key' ? edit.actor.id : null,
      edit.requestId,
      JSON.stringify(edit.edits),
      edit.notifyCustomer,
      edit.staffNote,
      ...actorColumns(edit.actor),
    ],
  );
}

export interface StoredOrderEdit {
  id: string;
  apiKeyId: string | null;
  /** Who made the edit; a staff member without id or email for edits made before actors were kept. */
  actor: Actor | null;
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
    actor_type: string | null;
    actor_id: string | null;
    actor_name: string | null;
  }>(
    `SELECT id, api_key_id, request_id, edits, notify_customer, staff_note, created_at, actor_type, actor_id,
       actor_name FROM order_edits
     WHERE shop_id = $1 AND order_id = $2 ORDER BY id DESC LIMIT $3`,
    [shopId, orderId, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    apiKeyId: row.api_key_id,
    actor: actorFromColumns(row.actor_type, row.actor_id, row.actor_name),
    requestId: row.request_id,
    edits: row.edits,
    notifyCustomer: row.notify_customer,
    staffNote: row.staff_note,
    createdAt: row.created_at,
  }));
}
