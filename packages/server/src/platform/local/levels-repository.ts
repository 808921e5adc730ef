import type { Queryable } from '../../store/db.js';
import type { LevelProjection, PlatformLevel, ProjectionResult } from '../gateway.js';

type LevelKey = Omit<PlatformLevel, 'available'>;

/**
 * Compare-and-set of the embedded platform's levels in one statement: a level is written when
 * it shows what Tare expects (or Tare expects nothing). One that shows something else is
 * moved, even when that happens to be the figure asked for: the platform changed unseen, and
 * taking its figure as Tare's would absorb that change. Rows are locked in a fixed order (location, variant), so concurrent writers cannot deadlock.
 *
 * Here and in `readLocalLevels`, each level is one primary-key probe in that order (a LATERAL
 * subquery with LIMIT 1): joined as a set, a slice of an import's 2,000 keys hashed all of the
 * shop's levels each time, which grows with the catalog (decision 66).
 */
export async function projectLocalLevels(
  tx: Queryable,
  shopId: string,
  levels: LevelProjection[],
): Promise<ProjectionResult> {
  if (levels.length === 0) return { projected: [], moved: [] };
  const { rows } = await tx.query<{ location_id: string; variant_id: string; available: string; ok: boolean }>(
    `WITH w AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[]) AS w(location_id, variant_id, available, expected)),
     current AS (
       SELECT l.location_id, l.variant_id, l.available
       FROM (SELECT location_id, variant_id FROM w ORDER BY location_id COLLATE "C", variant_id COLLATE "C") AS k
       CROSS JOIN LATERAL (
         SELECT * FROM local_platform_levels l
         WHERE l.shop_id = $1 AND l.location_id = k.location_id AND l.variant_id = k.variant_id
         LIMIT 1 FOR UPDATE) AS l),
     decided AS (
       SELECT w.location_id, w.variant_id, w.available, c.available AS current,
         (w.expected IS NULL OR c.available IS NULL OR c.available = w.expected) AS ok
       FROM w LEFT JOIN current c ON c.location_id = w.location_id AND c.variant_id = w.variant_id),
     written AS (
       INSERT INTO local_platform_levels AS l (shop_id, location_id, variant_id, available)
       SELECT $1, location_id, variant_id, available FROM decided WHERE ok AND current IS DISTINCT FROM available
       ORDER BY location_id COLLATE "C", variant_id COLLATE "C"
       ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET available = EXCLUDED.available, updated_at = EXCLUDED.updated_at)
     SELECT location_id, variant_id, CASE WHEN ok THEN available ELSE current END AS available, ok FROM decided`,
    [
      shopId,
      levels.map((l) => l.locationId),
      levels.map((l) => l.variantId),
      levels.map((l) => l.available),
      levels.map((l) => l.expected),
    ],
  );
  const result: ProjectionResult = { projected: [], moved: [] };
  for (const row of rows) {
    const level = { locationId: row.location_id, variantId: row.variant_id, available: Number(row.available) };
    (row.ok ? result.projected : result.moved).push(level);
  }
  return result;
}

export async function readLocalLevels(
  tx: Queryable,
  shopId: string,
  levels: LevelKey[],
  options: { forUpdate?: boolean } = {},
): Promise<PlatformLevel[]> {
  if (levels.length === 0) return [];
  // Existing rows are locked in a fixed order (a level the platform never stocked reads 0).
  const { rows } = await tx.query<{ location_id: string; variant_id: string; available: string | null }>(
    `WITH w AS (SELECT * FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS w(location_id, variant_id, n)),
     found AS (
       SELECT l.location_id, l.variant_id, l.available
       FROM (SELECT location_id, variant_id FROM w ORDER BY location_id COLLATE "C", variant_id COLLATE "C") AS k
       CROSS JOIN LATERAL (
         SELECT * FROM local_platform_levels l
         WHERE l.shop_id = $1 AND l.location_id = k.location_id AND l.variant_id = k.variant_id
         LIMIT 1${options.forUpdate ? ' FOR UPDATE' : ''}) AS l)
     SELECT w.location_id, w.variant_id, found.available
     FROM w LEFT JOIN found ON found.location_id = w.location_id AND found.variant_id = w.variant_id ORDER BY w.n`,
    [shopId, levels.map((l) => l.locationId), levels.map((l) => l.variantId)],
  );
  return rows.map((r) => ({ locationId: r.location_id, variantId: r.variant_id, available: Number(r.available ?? 0) }));
}

/**
 * Moves the platform's own levels by whole units, as a platform does when it sells or restocks
 * (a checkout takes `quantity` units off, a restock gives them back); a missing level starts at 0.
 */
export async function moveLocalLevels(
  tx: Queryable,
  shopId: string,
  moves: { locationId: string; variantId: string; by: number }[],
): Promise<void> {
  const nonZero = moves.filter((m) => m.by !== 0);
  if (nonZero.length === 0) return;
  await tx.query(
    `INSERT INTO local_platform_levels AS l (shop_id, location_id, variant_id, available)
     SELECT $1, location_id, variant_id, sum(by) FROM unnest($2::text[], $3::text[], $4::bigint[]) AS m(location_id, variant_id, by)
     GROUP BY location_id, variant_id ORDER BY location_id COLLATE "C", variant_id COLLATE "C"
     ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET available = l.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at`,
    [shopId, nonZero.map((m) => m.locationId), nonZero.map((m) => m.variantId), nonZero.map((m) => m.by)],
  );
}
