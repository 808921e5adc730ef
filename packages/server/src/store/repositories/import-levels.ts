import { actorColumns } from '../../domain/actor.js';
import type { Queryable } from '../db.js';
import type { LedgerEntry } from './inventory.js';

/** A level as the import finds it, locked for the import's transaction. */
export interface ImportedLevel {
  locationId: string;
  variantId: string;
  total: string;
  unit: string;
  platformAvailable: number | null;
}

/**
 * The shop's existing levels among `keys`, locked for this transaction in one statement, in the
 * order inventory writes lock them (variant id then location, byte order), so an import and
 * writes never wait on each other in a cycle. Missing levels are absent.
 *
 * One primary-key probe per key (a LATERAL subquery with LIMIT 1, which the planner cannot turn
 * into a join): joined as a set, the planner hashed every level of the shop for each slice, so
 * an import's levels pass grew with the square of the catalog (PGlite at 100,000 levels: 200 ms a
 * slice for the scan, against 55 ms for 2,000 probes). The keys are sorted before the probes, so
 * the rows are locked in the writes' order.
 */
export async function lockLevelsForImport(
  db: Queryable,
  shopId: string,
  keys: { locationId: string; variantId: string }[],
): Promise<ImportedLevel[]> {
  if (keys.length === 0) return [];
  const { rows } = await db.query<ImportedLevel>(
    `SELECT l.location_id AS "locationId", l.variant_id AS "variantId", l.total::text AS total, l.unit,
       l.platform_available::float8 AS "platformAvailable"
     FROM (SELECT * FROM unnest($2::text[], $3::text[]) AS k(location_id, variant_id)
           ORDER BY k.variant_id COLLATE "C", k.location_id COLLATE "C") AS k
     CROSS JOIN LATERAL (
       SELECT * FROM inventory_levels l
       WHERE l.shop_id = $1 AND l.location_id = k.location_id AND l.variant_id = k.variant_id
       LIMIT 1 FOR UPDATE) AS l
     ORDER BY l.variant_id COLLATE "C", l.location_id COLLATE "C"`,
    [shopId, keys.map((k) => k.locationId), keys.map((k) => k.variantId)],
  );
  return rows;
}

/** Sets these levels' totals (inserting missing ones) in one statement. */
export async function writeLevels(
  db: Queryable,
  shopId: string,
  levels: { locationId: string; variantId: string; total: string; unit: string }[],
): Promise<void> {
  if (levels.length === 0) return;
  await db.query(
    `INSERT INTO inventory_levels (shop_id, location_id, variant_id, total, unit)
     SELECT $1, w.location_id, w.variant_id, w.total, w.unit
     FROM unnest($2::text[], $3::text[], $4::numeric[], $5::text[]) AS w(location_id, variant_id, total, unit)
     ORDER BY w.variant_id COLLATE "C", w.location_id COLLATE "C"
     ON CONFLICT (shop_id, location_id, variant_id)
     DO UPDATE SET total = EXCLUDED.total, unit = EXCLUDED.unit, updated_at = EXCLUDED.updated_at`,
    [
      shopId,
      levels.map((l) => l.locationId),
      levels.map((l) => l.variantId),
      levels.map((l) => l.total),
      levels.map((l) => l.unit),
    ],
  );
}

/** Appends ledger rows of one shop in one statement, their ids in the order given. */
export async function appendLedgerRows(db: Queryable, shopId: string, entries: LedgerEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const column = <K extends keyof LedgerEntry>(k: K) => entries.map((e) => e[k]);
  const actors = entries.map((e) => actorColumns(e.actor));
  await db.query(
    `INSERT INTO inventory_ledger (shop_id, location_id, variant_id, operation, quantity_before, quantity_after,
       delta, unit, idempotency_key, request_id, reference_type, reference_id, actor_type, actor_id, actor_name)
     SELECT $1, e.location_id, e.variant_id, e.operation, e.before, e.after, e.delta, e.unit, e.idempotency_key,
       e.request_id, e.reference_type, e.reference_id, e.actor_type, e.actor_id, e.actor_name
     FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::numeric[], $8::text[],
       $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])
       WITH ORDINALITY AS e(location_id, variant_id, operation, before, after, delta, unit, idempotency_key,
         request_id, reference_type, reference_id, actor_type, actor_id, actor_name, n)
     ORDER BY e.n`,
    [
      shopId,
      column('locationId'),
      column('variantId'),
      column('operation'),
      column('before'),
      column('after'),
      column('delta'),
      column('unit'),
      column('idempotencyKey'),
      column('requestId'),
      entries.map((e) => e.reference?.type ?? null),
      entries.map((e) => e.reference?.id ?? null),
      actors.map((a) => a[0]),
      actors.map((a) => a[1]),
      actors.map((a) => a[2]),
    ],
  );
}
