import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { citusTemplateName, createCitusDatabase, dropCitusDatabase, sealAsTemplate } from './citus.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Names this test run's migrated Citus template (citus-global-setup.ts). */
    citusTemplateRun: string;
  }
}

let template: Promise<string> | undefined;

/**
 * The name of this run's Citus database with every migration applied, made by the first test
 * file that asks and copied by every Citus test database after it: migrating on Citus takes
 * several seconds (each table is distributed over the nodes), copying a database about one. Test
 * files run in several processes at once, so the first one makes it under an advisory lock on the
 * coordinator and the others wait for it. Undefined when the run has no id (vitest started
 * without the global setup): each database is then migrated on its own.
 */
export function citusTemplate(url: string): Promise<string> | undefined {
  let run: string | undefined;
  try {
    run = inject('citusTemplateRun');
  } catch {
    run = undefined;
  }
  if (!run) return undefined;
  template ??= makeOnce(url, citusTemplateName(run));
  return template;
}

async function makeOnce(url: string, name: string): Promise<string> {
  const coordinator = new URL(url);
  coordinator.pathname = '/postgres';
  const lock = new pg.Client({ connectionString: coordinator.toString() });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rows } = await lock.query<{ datallowconn: boolean }>(
      'SELECT datallowconn FROM pg_database WHERE datname = $1',
      [name],
    );
    // A template still open to connections was left half made by a process that died making it.
    if (rows[0]?.datallowconn === false) return name;
    if (rows.length) await dropCitusDatabase(url, name);
    const database = await createCitusDatabase(url, { name });
    const db = await openPostgres({ connectionString: database.url });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await sealAsTemplate(url, name);
    return name;
  } finally {
    await lock.end();
  }
}
