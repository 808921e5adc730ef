import { type Actor, actorColumns } from '../../domain/actor.js';
import { type MeasurementType, typeOfUnit } from '../../domain/units.js';
import type { Queryable } from '../db.js';
import type { PlatformKind } from './shops.js';
import { findSiblings, type LockedItemLevel, lockItemLevels } from './stock-items.js';

export interface LevelKey {
  shopId: string;
  locationId: string;
  variantId: string;
}

export type LedgerOperation =
  'adjustment' | 'set' | 'import' | 'order_edit' | 'sale' | 'order_cancel' | 'refund' | 'platform_adjustment';

/** What caused a ledger row (PRODUCT.md §13). */
export interface LedgerReference {
  type: 'order' | 'refund' | 'idempotency_key' | 'import' | 'platform';
  id: string | null;
}

export interface LedgerEntry extends LevelKey {
  operation: LedgerOperation;
  before: string;
  after: string;
  delta: string;
  unit: string;
  idempotencyKey: string | null;
  requestId: string | null;
  reference: LedgerReference | null;
  /** Who asked for the change (rows written before actors were kept have none; new ones always do). */
  actor: Actor;
}

/** The level's exact total (decimal text in `unit`), locking the row for this transaction. */
export async function lockLevel(
  db: Queryable,
  key: LevelKey,
): Promise<{ total: string; unit: string; platformAvailable: number | null } | undefined> {
  const { rows } = await db.query<{ total: string; unit: string; platformAvailable: number | null }>(
    `SELECT total, unit, platform_available::float8 AS "platformAvailable" FROM inventory_levels
     WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3 FOR UPDATE`,
    [key.shopId, key.locationId, key.variantId],
  );
  return rows[0];
}

/** A level locked for a write, with what the write needs of its variant. */
export interface LockedLevel {
  variantId: string;
  measurementType: MeasurementType;
  /** The variant's unit (`unitMeasurement.unit`) and unit value, as decimal text. */
  unit: string;
  unitValue: string;
  /** The level's exact total, as decimal text in `levelUnit`. */
  total: string;
  levelUnit: string;
  /** The whole units Tare believes the platform shows (null: never projected). */
  platformAvailable: number | null;
  /**
   * The stock item the variant sells from (PRODUCT.md §20), whose level is the one written: then
   * `total` and `levelUnit` are the item's.
   */
  stockItemId?: string;
  /** A linked variant's own row as it was: the copy of its item's total the last write left. */
  copied?: { total: string; unit: string };
}

/** A stock item's level locked for a write, with every variant linked to it (their levels locked too). */
export interface LockedItem extends LockedItemLevel {
  siblings: LockedLevel[];
}

/**
 * The start of an inventory write: whether the location exists, the shop's platform, and the
 * levels of those `variantIds` the shop has, locked for this transaction. Unknown variants are
 * absent; nothing is locked for an unknown location. The caller validates afterwards and rolls
 * back on any problem.
 *
 * Rows are locked in one fixed order (variant id, byte order), so two batches touching the same
 * variants in any order can never deadlock. When every level exists (the usual case) they are
 * locked with `FOR UPDATE`, which writes nothing; when one is missing, all of them go through an
 * upsert in that order (missing ones created at zero in the variant's unit, existing ones
 * "updated" to themselves, which locks them and returns their latest committed total). Either
 * way each transaction takes its whole set in that order, and `FOR UPDATE` never waits for a row
 * another transaction is still creating (it does not see it, so it takes the upsert path). A
 * single existing level, the common write, is locked by a short statement of its own (80 µs of
 * PostgreSQL's time against 200 µs for the general one, measured with pgbench).
 *
 * A variant linked to a stock item (PRODUCT.md §20) writes the item's level: the item levels are
 * locked first (created at 0 when missing), in item id byte order, then the levels of every
 * variant linked to them (siblings included, created when missing) with the others, in the order
 * above. The item's level is the lock: every write to a linked variant takes it before any
 * variant level, so the order stays one fixed order (items, then variants) and nothing deadlocks.
 */
export async function lockLevelsForWrite(
  db: Queryable,
  shopId: string,
  locationId: string,
  variantIds: string[],
): Promise<{
  locationFound: boolean;
  platform: PlatformKind | null;
  levels: Map<string, LockedLevel>;
  /** The stock items of the linked variants among `variantIds`, by item id. */
  items: Map<string, LockedItem>;
}> {
  // One variant whose level exists (the usual write): a short statement, cheap to plan and run.
  // Finding no row it has locked nothing, so the general statement can still take its order.
  const one = new Set(variantIds).size === 1 ? await lockOneLevel(db, shopId, locationId, variantIds[0]!) : undefined;
  if (one?.length) return { ...lockedLevels(one), items: new Map() };
  const siblings = await findSiblings(db, shopId, variantIds);
  if (siblings.size === 0) {
    return { ...lockedLevels((await lockOrCreateLevels(db, shopId, locationId, variantIds)).rows), items: new Map() };
  }
  const itemLevels = await lockItemLevels(db, shopId, locationId, [...siblings.keys()]);
  const all = [...new Set([...variantIds, ...[...siblings.values()].flat()])];
  const { locationFound, platform, levels } = lockedLevels(
    (await lockOrCreateLevels(db, shopId, locationId, all)).rows,
  );
  const items = new Map<string, LockedItem>();
  for (const [itemId, level] of itemLevels) {
    const linked = (siblings.get(itemId) ?? []).flatMap((id) => {
      const sibling = levels.get(id);
      if (!sibling) return [];
      const copied = { total: sibling.total, unit: sibling.levelUnit };
      return [{ ...sibling, total: level.total, levelUnit: level.levelUnit, stockItemId: itemId, copied }];
    });
    for (const sibling of linked) levels.set(sibling.variantId, sibling);
    items.set(itemId, { ...level, siblings: linked });
  }
  // Siblings no one asked for are locked, and reached through their item only.
  const asked = new Set(variantIds);
  for (const id of levels.keys()) if (!asked.has(id)) levels.delete(id);
  return { locationFound, platform, levels, items };
}

function lockedLevels(rows: LockedLevelRow[]) {
  const locationFound = rows[0]?.location_found === true;
  const levels = new Map<string, LockedLevel>();
  for (const row of rows) {
    // A variant without a locked level: the location is unknown (or the level vanished meanwhile).
    if (row.id === null || row.total === null) continue;
    levels.set(row.id, {
      variantId: row.id,
      measurementType: row.measurement_type,
      unit: row.unit,
      unitValue: row.unit_value,
      total: row.total,
      levelUnit: row.level_unit,
      platformAvailable: row.platform_available === null ? null : Number(row.platform_available),
    });
  }
  return { locationFound, platform: rows[0]?.platform ?? null, levels };
}

interface LockedLevelRow {
  location_found: boolean;
  platform: PlatformKind | null;
  id: string | null;
  measurement_type: MeasurementType;
  unit: string;
  unit_value: string;
  total: string;
  level_unit: string;
  platform_available: string | null;
}

/**
 * The product's measurement type is read off the variant's unit, which the import keeps of that
 * type (it refuses any other): one table fewer to join, which saves Citus about a third of this
 * statement's time (planned on the coordinator and again on the worker).
 */
async function lockOneLevel(db: Queryable, shopId: string, locationId: string, variantId: string) {
  const { rows } = await db.query<Omit<LockedLevelRow, 'measurement_type'>>(
    `SELECT true AS location_found, s.platform, v.id, v.unit, v.unit_value, l.total,
       l.unit AS level_unit, l.platform_available
     FROM inventory_levels l
     JOIN variants v ON v.shop_id = l.shop_id AND v.id = l.variant_id
     JOIN shops s ON s.id = l.shop_id
     WHERE l.shop_id = $1 AND l.location_id = $2 AND l.variant_id = $3 AND v.stock_item_id IS NULL
     FOR UPDATE OF l`,
    [shopId, locationId, variantId],
  );
  return rows.map((row): LockedLevelRow => ({ ...row, measurement_type: typeOfUnit(row.unit)! }));
}

/**
 * `lockLevelsForWrite` for any set: existing levels locked when all exist, else every one upserted
 * (in the same order) and then locked. Two statements on that path, not one with an INSERT CTE
 * beside the FOR UPDATE one: Citus plans neither such a statement nor an INSERT CTE on one shard.
 */
async function lockOrCreateLevels(db: Queryable, shopId: string, locationId: string, variantIds: string[]) {
  const existing = await lockExistingLevels(db, shopId, locationId, variantIds);
  if (existing.rows[0]?.complete !== false) return existing;
  await db.query(
    `INSERT INTO inventory_levels AS l (shop_id, location_id, variant_id, total, unit)
     SELECT v.shop_id, loc.id, v.id, 0, v.unit
       FROM variants v JOIN locations loc ON loc.shop_id = v.shop_id AND loc.id = $2
      WHERE v.shop_id = $1 AND v.id = ANY($3::text[])
      ORDER BY v.id COLLATE "C"
     ON CONFLICT (shop_id, location_id, variant_id) DO UPDATE SET total = l.total`,
    [shopId, locationId, variantIds],
  );
  return lockExistingLevels(db, shopId, locationId, variantIds);
}

/** The levels locked in variant order when all exist (`complete`); none locked otherwise. */
function lockExistingLevels(db: Queryable, shopId: string, locationId: string, variantIds: string[]) {
  return db.query<LockedLevelRow & { complete: boolean }>(
    `WITH loc AS (SELECT id FROM locations WHERE shop_id = $1 AND id = $2),
     v AS (
       SELECT v.id, v.unit, v.unit_value, p.measurement_type
       FROM variants v JOIN products p ON p.shop_id = v.shop_id AND p.id = v.product_id
       WHERE v.shop_id = $1 AND v.id = ANY($3::text[])),
     complete AS (
       SELECT NOT EXISTS (
         SELECT 1 FROM v CROSS JOIN loc WHERE NOT EXISTS (
           SELECT 1 FROM inventory_levels l WHERE l.shop_id = $1 AND l.location_id = loc.id AND l.variant_id = v.id)) AS ok),
     locked AS (
       SELECT l.variant_id, l.total, l.unit, l.platform_available FROM inventory_levels l
       WHERE (SELECT ok FROM complete) AND l.shop_id = $1 AND l.location_id = (SELECT id FROM loc)
         AND l.variant_id IN (SELECT id FROM v)
       ORDER BY l.variant_id COLLATE "C" FOR UPDATE)
     SELECT EXISTS (SELECT 1 FROM loc) AS location_found, (SELECT ok FROM complete) AS complete,
       (SELECT platform FROM shops WHERE id = $1) AS platform,
       v.id, v.unit, v.unit_value, v.measurement_type, locked.total, locked.unit AS level_unit, locked.platform_available
     FROM (SELECT 1) AS one
     LEFT JOIN v ON true
     LEFT JOIN locked ON locked.variant_id = v.id`,
    [shopId, locationId, variantIds],
  );
}

type LevelWrite = LedgerEntry & { platformAvailable: number | null };

/**
 * Writes new totals and what the platform now shows (levels already locked by
 * `lockLevelsForWrite`) and appends their ledger rows. A booking that moves nothing (an order's
 * ordinary line: only the platform's units move) leaves no ledger row; an API adjustment or set
 * always does.
 *
 * Separate statements, each routed to the shop's one shard on Citus: the levels' update (one
 * level by its primary key, which Citus plans on its fast path; several by an `UPDATE … FROM
 * unnest(…)`), then the ledger rows. One statement (an UPDATE CTE beside an `INSERT … SELECT`)
 * saves a round trip on PostgreSQL, but Citus runs it in steps through the coordinator
 * (decision 111).
 */
export async function writeLevelsWithLedger(db: Queryable, entries: LevelWrite[]): Promise<void> {
  if (entries.length === 0) return;
  // On a worker (shard routing), the ledger's ids are drawn on the coordinator while the levels
  // are written; a failed write leaves them unused, as a rolled-back nextval() would.
  const ids = db.coordinator?.nextIds(LEDGER_IDS, entries.length);
  ids?.catch(() => {});
  const [first] = entries;
  if (entries.length === 1) await writeOneLevel(db, first!);
  else await writeLevels(db, entries);
  await appendLedger(db, entries, ids);
}

/** One level (the usual write): a single-table primary-key update, on Citus's fast path. */
async function writeOneLevel(db: Queryable, level: LevelWrite): Promise<void> {
  await db.query(
    `UPDATE inventory_levels SET total = $4, unit = $5, platform_available = $6, updated_at = now()
     WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3`,
    [level.shopId, level.locationId, level.variantId, level.after, level.unit, level.platformAvailable],
  );
}

async function writeLevels(db: Queryable, entries: LevelWrite[]): Promise<void> {
  const [first] = entries;
  const column = <K extends keyof LevelWrite>(k: K) => entries.map((e) => e[k]);
  await db.query(
    `UPDATE inventory_levels l SET total = v.after, unit = v.unit, platform_available = v.platform_available,
       updated_at = now()
     FROM unnest($3::text[], $4::numeric[], $5::text[], $6::bigint[]) AS v(id, after, unit, platform_available)
     WHERE l.shop_id = $1 AND l.location_id = $2 AND l.variant_id = v.id`,
    [
      first!.shopId,
      first!.locationId,
      column('variantId'),
      column('after'),
      column('unit'),
      column('platformAvailable'),
    ],
  );
}

/** Whether a decimal text is zero (`0`, `-0.000`): exact, no float. */
const isZero = (decimal: string) => /^[-+]?0*\.?0*$/.test(decimal);

/**
 * A ledger row as written: of a variant's level, or (with `stockItemId`) of a stock item's, where
 * `variantId` names the variant that caused it, if one did.
 */
export type LedgerRow = Omit<LedgerEntry, 'variantId'> & { variantId: string | null; stockItemId?: string };

/**
 * Appends the ledger rows of one write (one operation, key, request, reference and actor): every
 * row of an API adjustment or set, and otherwise only those that move something (an order's
 * ordinary line moves only the platform's units).
 */
export async function appendLedger(db: Queryable, rows: LedgerRow[], drawn?: Promise<string[]>): Promise<void> {
  const always = rows[0]?.operation === 'adjustment' || rows[0]?.operation === 'set';
  const ledger = always ? rows : rows.filter((e) => !isZero(e.delta));
  if (ledger.length === 0) return;
  // Ids rise in the order of writes to a level only if every node draws them from one series:
  // a worker's own copy of the sequence counts in a range of its own (shard routing).
  const ids = await (drawn ?? db.coordinator?.nextIds(LEDGER_IDS, ledger.length));
  if (ledger.length === 1) await insertLedgerRow(db, ledger[0]!, ids?.[0]);
  else await insertLedgerRows(db, ledger[0]!, ledger, ids);
}

const LEDGER_IDS = 'inventory_ledger_id_seq';

const LEDGER_COLUMNS = `shop_id, location_id, variant_id, stock_item_id, operation, quantity_before, quantity_after,
  delta, unit, idempotency_key, request_id, reference_type, reference_id, actor_type, actor_id, actor_name`;

/** One ledger row: `INSERT … VALUES`, which Citus routes to the shop's shard; its id the sequence's default unless given. */
async function insertLedgerRow(db: Queryable, row: LedgerRow, id?: string): Promise<void> {
  await db.query(
    `INSERT INTO inventory_ledger (${id === undefined ? '' : 'id, '}${LEDGER_COLUMNS})
     VALUES (${id === undefined ? '' : '$17, '}$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      row.shopId,
      row.locationId,
      row.variantId,
      row.stockItemId ?? null,
      row.operation,
      row.before,
      row.after,
      row.delta,
      row.unit,
      row.idempotencyKey,
      row.requestId,
      row.reference?.type ?? null,
      row.reference?.id ?? null,
      ...actorColumns(row.actor),
      ...(id === undefined ? [] : [id]),
    ],
  );
}

/**
 * Several ledger rows, ids rising in the order given. Citus pushes an `INSERT … SELECT` down to
 * the shop's one shard only when it reads a colocated table of that shop (the location, here)
 * and the ids are given (a `nextval()` default pulls the rows through the coordinator), so the
 * ids are drawn first by a statement of their own (the sequence is the coordinator's). A
 * multi-row `VALUES` would be routed as well, but costs PostgreSQL a third more CPU to parse at
 * 100 rows than `unnest` of arrays.
 */
async function insertLedgerRows(db: Queryable, shared: LedgerRow, rows: LedgerRow[], drawn?: string[]) {
  const ids =
    drawn ??
    (
      await db.query<{ id: string }>(
        `SELECT nextval('inventory_ledger_id_seq')::text AS id FROM generate_series(1, $1)`,
        [rows.length],
      )
    ).rows.map((r) => r.id);
  const column = <K extends keyof LedgerRow>(k: K) => rows.map((e) => e[k] ?? null);
  await db.query(
    `INSERT INTO inventory_ledger (id, ${LEDGER_COLUMNS})
     SELECT v.id, loc.shop_id, loc.id, v.variant_id, v.stock_item_id, $3, v.before, v.after, v.delta, v.unit, $4, $5,
       $6, $7, $8, $9, $10
       FROM locations loc
       CROSS JOIN unnest($11::bigint[], $12::text[], $13::text[], $14::numeric[], $15::numeric[], $16::numeric[],
         $17::text[]) AS v(id, variant_id, stock_item_id, before, after, delta, unit)
      WHERE loc.shop_id = $1 AND loc.id = $2`,
    [
      shared.shopId,
      shared.locationId,
      shared.operation,
      shared.idempotencyKey,
      shared.requestId,
      shared.reference?.type ?? null,
      shared.reference?.id ?? null,
      ...actorColumns(shared.actor),
      ids.slice(0, rows.length),
      column('variantId'),
      column('stockItemId'),
      column('before'),
      column('after'),
      column('delta'),
      column('unit'),
    ],
  );
}

/** Records what the platform now shows for levels whose total did not change. */
export async function setPlatformAvailable(db: Queryable, shopId: string, levels: PlatformLevelRow[]): Promise<void> {
  if (levels.length === 0) return;
  await db.query(
    `UPDATE inventory_levels l SET platform_available = w.available
     FROM unnest($2::text[], $3::text[], $4::bigint[]) AS w(location_id, variant_id, available)
     WHERE l.shop_id = $1 AND l.location_id = w.location_id AND l.variant_id = w.variant_id`,
    [shopId, levels.map((l) => l.locationId), levels.map((l) => l.variantId), levels.map((l) => l.available)],
  );
}

interface PlatformLevelRow {
  locationId: string;
  variantId: string;
  available: number;
}
