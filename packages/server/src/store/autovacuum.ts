import type { Queryable } from './db.js';

/** A table that PostgreSQL's autovacuum daemon would vacuum or analyze now, and which. */
export interface TableDue {
  /** Schema-qualified and quoted, ready for a statement. */
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * The tables that PostgreSQL's autovacuum daemon would take on now, by its own rules and the
 * server's own settings (https://www.postgresql.org/docs/current/routine-vacuuming.html#AUTOVACUUM):
 * vacuum when the dead rows pass `autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor ×
 * rows` (at most `autovacuum_vacuum_max_threshold`), when the rows inserted since the last vacuum
 * pass the insert threshold worked out the same way, or when the table's oldest transaction or
 * multixact id is older than the freeze limits; analyze when the rows changed since the last
 * analyze pass the analyze threshold. PGlite has no such daemon: `startAutovacuum` stands in.
 */
export async function tablesDue(db: Queryable): Promise<TableDue[]> {
  // The activity counters reach the statistics views only when the session flushes them (at
  // most once a second when idle); this makes the next statement see every change until now.
  await db.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.query<TableDue>(
    `WITH setting AS (
       SELECT current_setting('autovacuum_vacuum_threshold')::float8 AS vacuum_base,
         current_setting('autovacuum_vacuum_scale_factor')::float8 AS vacuum_scale,
         COALESCE(current_setting('autovacuum_vacuum_max_threshold', true)::float8, 'infinity') AS vacuum_max,
         current_setting('autovacuum_vacuum_insert_threshold')::float8 AS insert_base,
         current_setting('autovacuum_vacuum_insert_scale_factor')::float8 AS insert_scale,
         current_setting('autovacuum_analyze_threshold')::float8 AS analyze_base,
         current_setting('autovacuum_analyze_scale_factor')::float8 AS analyze_scale,
         current_setting('autovacuum_freeze_max_age')::float8 AS freeze_age,
         current_setting('autovacuum_multixact_freeze_max_age')::float8 AS multixact_age),
     t AS (
       SELECT format('%I.%I', s.schemaname, s.relname) AS "table",
         s.n_dead_tup > least(vacuum_base + vacuum_scale * greatest(c.reltuples, 0), vacuum_max)
           OR s.n_ins_since_vacuum > insert_base + insert_scale * greatest(c.reltuples, 0)
           OR age(c.relfrozenxid) > freeze_age
           OR mxid_age(c.relminmxid) > multixact_age AS vacuum,
         s.n_mod_since_analyze > analyze_base + analyze_scale * greatest(c.reltuples, 0) AS "analyze"
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid CROSS JOIN setting)
     SELECT * FROM t WHERE vacuum OR "analyze" ORDER BY "table"`,
  );
  return rows;
}

/** Does for one table what `tablesDue` found it needs (outside any transaction: VACUUM cannot run in one). */
export async function maintainTable(db: Queryable, due: TableDue): Promise<void> {
  if (due.vacuum) await db.query(`VACUUM ${due.analyze ? '(ANALYZE) ' : ''}${due.table}`);
  else if (due.analyze) await db.query(`ANALYZE ${due.table}`);
}
