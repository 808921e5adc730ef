import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Db } from '../../src/store/db.js';
import { MIGRATIONS_DIR, migrate } from '../../src/store/migrate.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { openPglite } from '../../src/store/pglite-driver.js';
import { createCitusDatabase } from './citus.js';
import { citusTemplate } from './citus-template.js';

export interface TestDriver {
  name: 'pglite' | 'postgres' | 'citus';
  /** A fresh, fully migrated database of its own; `close()` disposes of it. */
  create(): Promise<Db>;
  /**
   * A fresh, fully migrated database on this server, by its URL (PostgreSQL and Citus only:
   * PGlite is one process per data dir), for suites that open several pools or processes on one
   * database as several instances would; `drop()` removes it.
   */
  database?(): Promise<ServerDatabase>;
}

export interface ServerDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface TestDriverOptions {
  /**
   * Also run on the Citus cluster of TEST_CITUS_URL when it is set. A suite opts in: each
   * database there is made on three nodes and distributed, so CI runs on Citus only the suites
   * that say so (docs/decisions.md). `TEST_CITUS_ALL=1` runs every suite there that does not
   * refuse it (`citus: false`): the sweep before a release, too long for every CI run.
   */
  citus?: boolean;
  migrationsDir?: string;
}

/**
 * PGlite always; PostgreSQL too when TEST_DATABASE_URL points at a server we may CREATE DATABASE
 * on; Citus too when the suite asks for it and TEST_CITUS_URL is set.
 */
export function testDrivers({
  citus = process.env.TEST_CITUS_ALL === '1',
  migrationsDir = MIGRATIONS_DIR,
}: TestDriverOptions = {}): TestDriver[] {
  const drivers: TestDriver[] = [{ name: 'pglite', create: () => createPglite(migrationsDir) }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const database = () => migrated(() => createPostgresDatabase(url), migrationsDir);
    drivers.push({ name: 'postgres', create: () => openOn(database), database });
  }
  const citusUrl = process.env.TEST_CITUS_URL;
  if (citus && citusUrl) {
    const database = async () => {
      // A copy of the run's migrated template when the migrations are the service's own.
      const template = migrationsDir === MIGRATIONS_DIR ? await citusTemplate(citusUrl) : undefined;
      if (template) return createCitusDatabase(citusUrl, { template });
      return migrated(() => createCitusDatabase(citusUrl), migrationsDir);
    };
    // Inventory writes on the shop's worker, as docs/operations.md recommends where Tare reaches
    // the workers; test/store/shard-routing.test.ts also writes through the coordinator.
    drivers.push({ name: 'citus', create: () => openOn(database, { shardRouting: true }), database });
  }
  return drivers;
}

/** The drivers of `testDrivers(options)` that are database servers (PostgreSQL, Citus when asked). */
export function serverDrivers(
  options: TestDriverOptions = {},
): (TestDriver & Pick<Required<TestDriver>, 'database'>)[] {
  return testDrivers(options).filter((driver): driver is TestDriver & Pick<Required<TestDriver>, 'database'> =>
    Boolean(driver.database),
  );
}

// Booting PGlite and running initdb takes seconds, loading a dump well under one; so each
// process migrates once per migrations dir and every create() loads that snapshot.
const snapshots = new Map<string, Promise<Blob>>();

function snapshot(dir: string): Promise<Blob> {
  let blob = snapshots.get(dir);
  if (!blob) {
    blob = (async () => {
      const db = await openPglite();
      try {
        await migrate(db, dir);
        return await db.dumpDataDir();
      } finally {
        await db.close();
      }
    })();
    snapshots.set(dir, blob);
  }
  return blob;
}

async function createPglite(dir: string): Promise<Db> {
  return openPglite({ loadDataDir: await snapshot(dir) });
}

/** The database `make` gives, migrated with `dir`. */
async function migrated(make: () => Promise<ServerDatabase>, dir: string): Promise<ServerDatabase> {
  const database = await make();
  try {
    const db = await openPostgres({ connectionString: database.url });
    try {
      await migrate(db, dir);
    } finally {
      await db.close();
    }
    return database;
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/** A pool on the database `make` gives; closing it drops the database. */
async function openOn(make: () => Promise<ServerDatabase>, options: { shardRouting?: boolean } = {}): Promise<Db> {
  const database = await make();
  try {
    const db = await openPostgres({ connectionString: database.url, ...options });
    // Drivers are closure-based objects, so copying their methods keeps them working.
    return {
      ...db,
      async close() {
        try {
          if (options.shardRouting) await expectCoordinatorSeries(db);
        } finally {
          await db.close();
          await database.drop();
        }
      },
    };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/**
 * Every suite's writes routed to a worker drew their ids and generations on the coordinator: a
 * worker's own copy of a sequence counts from 2^48 (Citus: its group id × 2^48), which would break
 * the order of a level's ledger (docs/operations.md, "Shard routing"). Checked as the database
 * closes, so every Citus suite checks what it wrote.
 */
async function expectCoordinatorSeries(db: Db): Promise<void> {
  const { rows } = await db.query<{ what: string }>(
    `SELECT 'inventory_ledger.id' AS what FROM inventory_ledger WHERE id >= 2 ^ 48
     UNION ALL SELECT 'platform_events.id' FROM platform_events WHERE id >= 2 ^ 48
     UNION ALL SELECT 'projection_outbox.generation' FROM projection_outbox WHERE generation >= 2 ^ 48`,
    [],
  );
  if (rows.length > 0) {
    const drawn = [...new Set(rows.map((r) => r.what))].join(', ');
    throw new Error(`${rows.length} value(s) of ${drawn} were drawn from a worker's range of the sequence`);
  }
}

/** An empty database named tare_t_<random> on the server of `url`; drop() removes it even if still in use. */
export async function createPostgresDatabase(url: string = requiredEnv('TEST_DATABASE_URL')): Promise<ServerDatabase> {
  const name = `tare_t_${randomBytes(6).toString('hex')}`;
  await admin(url, `CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return { url: target.toString(), drop: () => admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/**
 * Resolves once a transaction on `db`'s PostgreSQL database waits for a lock another one holds
 * (or once `stop` is aborted: a caller racing it against something else ends the polling). On
 * Citus a row lock is waited for on the worker holding the shard, so every node's activity is
 * read there (citus_stat_activity), the coordinator's advisory locks included.
 */
export async function someoneWaitsForALock(db: Db, stop?: AbortSignal): Promise<void> {
  const { rows: citus } = await db.query<{ on: boolean }>(
    `SELECT to_regclass('pg_catalog.citus_stat_activity') IS NOT NULL AS on`,
  );
  const activity = citus[0]!.on ? 'citus_stat_activity' : 'pg_stat_activity';
  while (!stop?.aborted) {
    const { rows } = await db.query(
      `SELECT 1 FROM ${activity} WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows.length) return;
    await sleep(10);
  }
}
