import { copyFile, mkdir, mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script, no declarations
import { ensureSeed } from '../../scripts/pglite-seed.mjs';
import { migrate } from '../../src/store/migrate.js';
import { openPglite } from '../../src/store/pglite-driver.js';
import { findSeed } from '../../src/store/pglite-seed.js';
import { spawnGroup } from '../support/child-processes.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/extract-seed.mts', import.meta.url));
const SLOW = 120_000;

/** The cluster's identity: initdb draws a new one, a copy of the seed keeps the seed's. */
async function systemId(db: { query<R>(sql: string): Promise<{ rows: R[] }> }): Promise<string> {
  const { rows } = await db.query<{ id: string }>('SELECT system_identifier AS id FROM pg_control_system()');
  return rows[0]!.id;
}

/** Opens `dataDir` (with `seed` dirs), migrates, writes a row, reopens and reads it back. */
async function roundTrip(dataDir: string, seed?: string[]): Promise<{ warnings: string[]; id: string }> {
  const warnings: string[] = [];
  const db = await openPglite({ dataDir, seed, onWarning: (m) => warnings.push(m) });
  let id: string;
  try {
    expect(await migrate(db)).not.toHaveLength(0);
    await db.query("CREATE TABLE seed_probe (v text); INSERT INTO seed_probe VALUES ('kept')");
    id = await systemId(db);
  } finally {
    await db.close();
  }
  const again = await openPglite({ dataDir, seed, onWarning: (m) => warnings.push(m) });
  try {
    expect(await migrate(again)).toEqual([]);
    expect((await again.query<{ v: string }>('SELECT v FROM seed_probe')).rows).toEqual([{ v: 'kept' }]);
    expect(await systemId(again)).toBe(id);
  } finally {
    await again.close();
  }
  return { warnings, id };
}

describe('PGlite seed cluster', () => {
  let work: string;
  let seedDir: string;
  let seedId: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'tare-seed-'));
    // The build's seed (npm run build makes it); made here if this checkout was never built.
    if ('missing' in (await findSeed([DIST]))) await ensureSeed(DIST);
    seedDir = DIST;
    const first = await roundTrip(join(work, 'first'), [seedDir]);
    expect(first.warnings).toEqual([]);
    seedId = first.id;
  }, SLOW);
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('when a data dir is empty, then it becomes a copy of the seed (no initdb) and migrates', async () => {
    const { warnings, id } = await roundTrip(join(work, 'empty'), [seedDir]);
    expect(warnings).toEqual([]);
    expect(id).toBe(seedId);
  });

  it('when a store is in memory, then it starts from the seed too', async () => {
    const db = await openPglite({ seed: [seedDir], onWarning: (m) => expect.fail(m) });
    try {
      expect(await systemId(db)).toBe(seedId);
      expect(await migrate(db)).not.toHaveLength(0);
    } finally {
      await db.close();
    }
  });

  it(
    'when the seed was made by another PGlite, then initdb runs, says why, and the store works',
    async () => {
      const stale = join(work, 'stale-seed');
      await mkdir(stale);
      await copyFile(join(seedDir, 'pglite-seed.tar.gz'), join(stale, 'pglite-seed.tar.gz'));
      await writeFile(join(stale, 'pglite-seed.json'), JSON.stringify({ pglite: '0.0.1' }));
      const { warnings, id } = await roundTrip(join(work, 'initdb'), [stale]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/initdb.*made by PGlite 0\.0\.1, \d+\.\d+\.\d+ is installed/);
      expect(id).not.toBe(seedId);
    },
    SLOW,
  );

  it('when there is no seed, then the lookup says so and where it looked', async () => {
    const none = join(work, 'no-seed');
    expect(await findSeed([none])).toEqual({ missing: expect.stringContaining(`no pglite-seed.tar.gz in ${none}`) });
  });

  it('when a copy of the seed was cut short (no PG_VERSION yet), then the next open copies it again', async () => {
    const dataDir = join(work, 'cut-short');
    await roundTrip(dataDir, [seedDir]);
    // What a copy killed midway leaves: files present, some of them short, PG_VERSION not yet written.
    await rm(join(dataDir, 'PG_VERSION'));
    for (const name of (await readdir(join(dataDir, 'global'))).slice(0, 5))
      await truncate(join(dataDir, 'global', name), 0);
    await truncate(join(dataDir, 'global', 'pg_control'), 0);
    const db = await openPglite({ dataDir, seed: [seedDir], onWarning: (m) => expect.fail(m) });
    try {
      expect(await systemId(db)).toBe(seedId);
      expect(await migrate(db)).not.toHaveLength(0);
    } finally {
      await db.close();
    }
  });

  it(
    'when the copy is killed with SIGKILL midway, then the next open still gives a working store',
    async (ctx) => {
      const dataDir = join(work, 'killed');
      const child = spawnGroup(
        process.execPath,
        ['--import', 'tsx', FIXTURE, join(seedDir, 'pglite-seed.tar.gz'), dataDir],
        {
          cwd: dirname(FIXTURE),
          signal: ctx.signal,
        },
      );
      while (child.running && !existsSync(join(dataDir, 'base', '1'))) await new Promise((r) => setTimeout(r, 2));
      await child.kill('SIGKILL');
      const { warnings, id } = await roundTrip(dataDir, [seedDir]);
      expect(warnings).toEqual([]);
      expect(id).toBe(seedId);
    },
    SLOW,
  );
});
