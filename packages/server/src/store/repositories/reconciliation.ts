import type { Queryable } from '../db.js';

/** A level of a measured variant, as reconciliation compares it with the platform. */
export interface ReconciledLevel {
  locationId: string;
  variantId: string;
  total: string;
  unit: string;
  levelUnit: string;
  unitValue: string;
  platformAvailable: number | null;
  driftSince: Date | null;
}

export async function listLevelsToReconcile(db: Queryable, shopId: string): Promise<ReconciledLevel[]> {
  const { rows } = await db.query<{
    location_id: string;
    variant_id: string;
    total: string;
    unit: string;
    level_unit: string;
    unit_value: string;
    platform_available: string | null;
    drift_since: Date | null;
  }>(
    `SELECT l.location_id, l.variant_id, l.total, v.unit, l.unit AS level_unit, v.unit_value, l.platform_available,
       l.drift_since
     FROM inventory_levels l JOIN variants v ON v.shop_id = l.shop_id AND v.id = l.variant_id
     WHERE l.shop_id = $1
       -- A level whose whole units are still queued for the platform is the push's to settle.
       AND NOT EXISTS (SELECT 1 FROM projection_outbox q
                        WHERE q.shop_id = $1 AND q.location_id = l.location_id AND q.variant_id = l.variant_id)
     ORDER BY l.location_id COLLATE "C", l.variant_id COLLATE "C"`,
    [shopId],
  );
  return rows.map((r) => ({
    locationId: r.location_id,
    variantId: r.variant_id,
    total: r.total,
    unit: r.unit,
    levelUnit: r.level_unit,
    unitValue: r.unit_value,
    platformAvailable: r.platform_available === null ? null : Number(r.platform_available),
    driftSince: r.drift_since,
  }));
}

/** Records which levels drift (keeping when each started) and clears the others. */
export async function recordDrift(
  db: Queryable,
  shopId: string,
  levels: { locationId: string; variantId: string; drifting: boolean }[],
  now: Date,
): Promise<void> {
  if (levels.length === 0) return;
  await db.query(
    `UPDATE inventory_levels l SET drift_since = CASE WHEN w.drifting THEN COALESCE(l.drift_since, $5) END
     FROM unnest($2::text[], $3::text[], $4::boolean[]) AS w(location_id, variant_id, drifting)
     WHERE l.shop_id = $1 AND l.location_id = w.location_id AND l.variant_id = w.variant_id
       AND (l.drift_since IS NULL) = w.drifting`,
    [
      shopId,
      levels.map((l) => l.locationId),
      levels.map((l) => l.variantId),
      levels.map((l) => l.drifting),
      now.toISOString(),
    ],
  );
}

/**
 * Claims the shop's periodic reconciliation: true for exactly one instance per period (the
 * row is written only when the last run is older than `everyMs`; a second instance's insert waits
 * for the first's and then finds the run recent). The database's clock gives the time and the
 * cutoff in a statement of their own, then passed as values: Citus refuses now() in ON CONFLICT
 * DO UPDATE, and any function that is not immutable (interval arithmetic) in its WHERE.
 */
export async function claimReconciliation(db: Queryable, shopId: string, everyMs: number): Promise<boolean> {
  const clock = await db.query<{ at: Date; cutoff: Date }>(
    `SELECT now() AS at, now() - make_interval(secs => $1::double precision / 1000) AS cutoff`,
    [everyMs * 0.9],
  );
  const { at, cutoff } = clock.rows[0]!;
  const { rowCount } = await db.query(
    `INSERT INTO shop_sync_state AS s (shop_id, last_reconciled_at) VALUES ($1, $2::timestamptz)
     ON CONFLICT (shop_id) DO UPDATE SET last_reconciled_at = EXCLUDED.last_reconciled_at
      WHERE s.last_reconciled_at IS NULL OR s.last_reconciled_at <= $3::timestamptz`,
    [shopId, at, cutoff],
  );
  return rowCount > 0;
}

/** What the shop's last reconciliation found, kept for the admin (PRODUCT.md §17). */
export interface ReconciliationReport {
  at: string;
  /** Levels compared with the platform. */
  levels: number;
  ordersSynced: number;
  /** Whether drift was fixed (`--fix`, the periodic job) or only reported. */
  fixed: boolean;
  drift: {
    variantId: string;
    locationId: string;
    platform: number;
    expected: number;
    since: string;
    outcome?: string;
  }[];
  /** Why the platform could not be compared (nothing else was done). */
  unavailable?: string;
}

export async function saveReconciliationReport(
  db: Queryable,
  shopId: string,
  report: ReconciliationReport,
): Promise<void> {
  await db.query(
    `INSERT INTO shop_sync_state (shop_id, last_reconciliation) VALUES ($1, $2)
     ON CONFLICT (shop_id) DO UPDATE SET last_reconciliation = EXCLUDED.last_reconciliation`,
    [shopId, JSON.stringify(report)],
  );
}

/** The shop's last reconciliation report; undefined when it was never reconciled. */
export async function lastReconciliationReport(
  db: Queryable,
  shopId: string,
): Promise<ReconciliationReport | undefined> {
  const { rows } = await db.query<{ report: ReconciliationReport | null }>(
    'SELECT last_reconciliation AS report FROM shop_sync_state WHERE shop_id = $1',
    [shopId],
  );
  return rows[0]?.report ?? undefined;
}
