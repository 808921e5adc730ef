// The raw-SQL baseline of one single-entry adjustment, shared by the in-process baseline
// (bench/inventory.ts) and the bare HTTP route in front of it (bench/bare-write-server.ts): the
// essential statements of Tare's write, straight through node-postgres, in one transaction.
import type pg from 'pg';

export interface RawAdjustment {
  shopId: string;
  locationId: string;
  variantId: string;
  /** Decimal text, in the level's unit (kg). */
  delta: string;
  key: string;
  requestId: string;
  fingerprint: Buffer;
  /** The response body stored with the key. */
  body: string;
}

/** Lock the level row, update the total, append a ledger row, store the idempotency row. */
export async function rawAdjustment(c: pg.ClientBase, a: RawAdjustment): Promise<void> {
  await c.query('BEGIN');
  try {
    const level = await c.query<{ total: string }>(
      'SELECT total FROM inventory_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3 FOR UPDATE',
      [a.shopId, a.locationId, a.variantId],
    );
    const before = level.rows[0]!.total;
    const updated = await c.query<{ total: string }>(
      `UPDATE inventory_levels SET total = total + $4::numeric, updated_at = now()
       WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3 RETURNING total`,
      [a.shopId, a.locationId, a.variantId, a.delta],
    );
    await c.query(
      `INSERT INTO inventory_ledger (shop_id, location_id, variant_id, operation, quantity_before, quantity_after,
         delta, unit, idempotency_key, request_id)
       VALUES ($1, $2, $3, 'adjustment', $4, $5, $6, 'kg', $7, $8)`,
      [a.shopId, a.locationId, a.variantId, before, updated.rows[0]!.total, a.delta, a.key, a.requestId],
    );
    await c.query(
      `INSERT INTO idempotency_keys (shop_id, key, fingerprint, response_status, response_body, request_id)
       VALUES ($1, $2, $3, 200, $4, $5)`,
      [a.shopId, a.key, a.fingerprint, a.body, a.requestId],
    );
    await c.query('COMMIT');
  } catch (error) {
    await c.query('ROLLBACK');
    throw error;
  }
}

/** A response body of the size Tare answers (and stores) for a single-entry adjustment. */
export function rawResponseBody(locationId: string, variantId: string): string {
  return JSON.stringify({
    data: {
      operation: 'adjustment',
      locationId,
      results: [
        {
          variantId,
          status: 'updated',
          previousQuantity: { value: 1000, unit: 'kg' },
          quantity: { value: 999.875, unit: 'kg' },
        },
      ],
    },
    meta: { requestId: 'req-0000000000000000' },
  });
}
