import type { Queryable } from '../db.js';

export interface LocationRecord {
  id: string;
  name: string;
}

export async function upsertLocation(db: Queryable, shopId: string, location: LocationRecord): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO locations (shop_id, id, name) VALUES ($1, $2, $3)
     ON CONFLICT (shop_id, id) DO UPDATE SET name = EXCLUDED.name WHERE locations.name IS DISTINCT FROM EXCLUDED.name`,
    [shopId, location.id, location.name],
  );
  return rowCount > 0;
}

export async function locationExists(db: Queryable, shopId: string, locationId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM locations WHERE shop_id = $1 AND id = $2', [shopId, locationId]);
  return rows.length > 0;
}
