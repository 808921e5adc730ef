import type { Queryable } from '../../store/db.js';
import type { LevelProjection, PlatformLevel, ProjectionResult } from '../gateway.js';

type LevelKey = Omit<PlatformLevel, 'available'>;

/**
 * Compare-and-set of the embedded platform's levels: a level is written when it shows what
 * Tare expects (or Tare expects nothing). One that shows something else is moved, even when
 * that happens to be the figure asked for: the platform changed unseen, and taking its figure
 * as Tare's would absorb that change. Rows are locked in a fixed order (location, variant), so
 * concurrent writers cannot deadlock. Two statements, the locking read and the write, each
 * routed to the shop's shard on Citus (as data-modifying CTEs of one statement, Citus ran them
 * in steps through the coordinator).
 *
 * A level whose whole units stay what Tare expects is neither read nor written, as Shopify's
 * adapter queues no push for it: most adjustments move only the fraction, and each statement
 * saved is a round trip to a worker on Citus. A change the platform made unseen meanwhile is
 * the inbox's to follow (its own event, or the next projection that finds it).
 */
export async function projectLocalLevels(
  tx: Queryable,
  shopId: string,
  levels: LevelProjection[],
): Promise<ProjectionResult> {
  const unchanged = (level: LevelProjection) => level.expected === level.available;
  const result: ProjectionResult = {
    projected: levels.filter(unchanged).map(({ expected: _, ...level }) => level),
    moved: [],
  };
  const changing = levels.filter((level) => !unchanged(level));
  if (changing.length === 0) return result;
  const current = await lockedLocalLevels(tx, shopId, changing, true);
  const writes: LevelProjection[] = [];
  for (const [i, level] of changing.entries()) {
    const shown = current[i]!;
    const ok = level.expected === null || shown === null || shown === level.expected;
    if (ok && shown !== level.available) writes.push(level);
    const key = { locationId: level.locationId, variantId: level.variantId };
    if (ok) result.projected.push({ ...key, available: level.available });
    else result.moved.push({ ...key, available: shown! });
  }
  await writeLocalLevels(tx, shopId, writes);
  return result;
}

/**
 * The levels' figures in the order given (null: the platform never stocked it), one primary-key
 * probe each in (location, variant) order (a LATERAL subquery with LIMIT 1): joined as a set, a
 * slice of an import's 2,000 keys hashed all of the shop's levels each time, which grows with
 * the catalog (decision 66). `forUpdate` locks the existing rows in that order.
 */
async function lockedLocalLevels(
  tx: Queryable,
  shopId: string,
  levels: LevelKey[],
  forUpdate: boolean,
): Promise<(number | null)[]> {
  if (levels.length === 1) return [await lockedLocalLevel(tx, shopId, levels[0]!, forUpdate)];
  const { rows } = await tx.query<{ available: string | null }>(
    `WITH w AS (SELECT * FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS w(location_id, variant_id, n)),
     found AS (
       SELECT l.location_id, l.variant_id, l.available
       FROM (SELECT location_id, variant_id FROM w ORDER BY location_id COLLATE "C", variant_id COLLATE "C") AS k
       CROSS JOIN LATERAL (
         SELECT * FROM local_platform_levels l
         WHERE l.shop_id = $1 AND l.location_id = k.location_id AND l.variant_id = k.variant_id
         LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}) AS l)
     SELECT found.available
     FROM w LEFT JOIN found ON found.location_id = w.location_id AND found.variant_id = w.variant_id ORDER BY w.n`,
    [shopId, levels.map((l) => l.locationId), levels.map((l) => l.variantId)],
  );
  return rows.map((r) => (r.available === null ? null : Number(r.available)));
}

/**
 * One level (an adjustment's, the usual projection): a single-table primary-key probe, which
 * Citus plans on its fast path (about half the coordinator's time of the general statement).
 */
async function lockedLocalLevel(tx: Queryable, shopId: string, level: LevelKey, forUpdate: boolean) {
  const { rows } = await tx.query<{ available: string }>(
    `SELECT available FROM local_platform_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3${forUpdate ? ' FOR UPDATE' : ''}`,
    [shopId, level.locationId, level.variantId],
  );
  return rows[0] ? Number(rows[0].available) : null;
}

/** Writes the figures, in (location, variant) order (`levelValues`). */
async function writeLocalLevels(tx: Queryable, shopId: string, levels: LevelProjection[]): Promise<void> {
  if (levels.length === 0) return;
  const { values, params } = levelValues(
    shopId,
    levels.map((level) => ({ ...level, figure: level.available })),
  );
  await tx.query(
    `INSERT INTO local_platform_levels AS l (shop_id, location_id, variant_id, available)
     VALUES ${values}
     ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET available = EXCLUDED.available, updated_at = EXCLUDED.updated_at`,
    params,
  );
}

/**
 * The rows of a multi-row VALUES of levels, `($1, $2, $3, $4::bigint), …` in (location, variant)
 * order, and their parameters (the shop's first). Citus routes such an INSERT to the shop's
 * shard; an INSERT … SELECT from unnest(…) it pulls through the coordinator.
 */
function levelValues(
  shopId: string,
  rows: { locationId: string; variantId: string; figure: number | bigint }[],
): { values: string; params: unknown[] } {
  const sorted = [...rows].sort((a, b) => compareC(a.locationId, b.locationId) || compareC(a.variantId, b.variantId));
  const params: unknown[] = [shopId];
  const values = sorted.map((row) => {
    const at = params.length;
    params.push(row.locationId, row.variantId, String(row.figure));
    return `($1, $${at + 1}, $${at + 2}, $${at + 3}::bigint)`;
  });
  return { values: values.join(', '), params };
}

/** Byte order, as `COLLATE "C"` sorts (the ids are ASCII). */
const compareC = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function readLocalLevels(
  tx: Queryable,
  shopId: string,
  levels: LevelKey[],
  options: { forUpdate?: boolean } = {},
): Promise<PlatformLevel[]> {
  if (levels.length === 0) return [];
  // Existing rows are locked in a fixed order (a level the platform never stocked reads 0).
  const figures = await lockedLocalLevels(tx, shopId, levels, options.forUpdate ?? false);
  return levels.map((l, i) => ({ locationId: l.locationId, variantId: l.variantId, available: figures[i] ?? 0 }));
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
  // One row per level, its moves summed exactly.
  const sums = new Map<string, { locationId: string; variantId: string; figure: bigint }>();
  for (const move of moves) {
    if (move.by === 0) continue;
    const key = JSON.stringify([move.locationId, move.variantId]);
    const sum = sums.get(key) ?? { locationId: move.locationId, variantId: move.variantId, figure: 0n };
    sum.figure += BigInt(move.by);
    sums.set(key, sum);
  }
  if (sums.size === 0) return;
  const { values, params } = levelValues(shopId, [...sums.values()]);
  await tx.query(
    `INSERT INTO local_platform_levels AS l (shop_id, location_id, variant_id, available)
     VALUES ${values}
     ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET available = l.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at`,
    params,
  );
}
