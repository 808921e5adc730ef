import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { createPostgresDatabase, testDrivers } from '../support/databases.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tare-migrations-'));
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
  return dir;
}

// Written out of order on purpose; 0010 must run after 0002 (name order, not number width tricks).
const MIGRATIONS = {
  '0010-c.sql': "INSERT INTO mig_log (step) VALUES ('c');",
  '0001-a.sql':
    "CREATE TABLE mig_log (seq serial PRIMARY KEY, step text NOT NULL);\nINSERT INTO mig_log (step) VALUES ('a');",
  '0002-b.sql': "SELECT pg_sleep(0.2);\nINSERT INTO mig_log (step) VALUES ('b');",
};

describe.each(testDrivers({ citus: true }))('Db contract on $name', ({ name, create }) => {
  let db: Db;
  const ids = async (): Promise<number[]> =>
    (await db.query<{ id: number }>('SELECT id FROM contract_items ORDER BY id')).rows.map((r) => r.id);

  beforeAll(async () => {
    db = await create();
    await db.query(`
      CREATE TABLE contract_items (id int PRIMARY KEY, amount numeric, big bigint, at timestamptz DEFAULT now());
      CREATE TABLE contract_counter (id int PRIMARY KEY, n int NOT NULL);
      INSERT INTO contract_counter VALUES (1, 0);`);
  });
  afterAll(() => db?.close());

  it('returns NUMERIC and INT8 as exact text and timestamptz as Date', async () => {
    const amounts = ['12345678901234567890.123456789012345678', '0.1', '-0.000000001'];
    for (const [i, amount] of amounts.entries()) {
      await db.query('INSERT INTO contract_items (id, amount, big) VALUES ($1, $2, $3)', [
        i + 1,
        amount,
        '9223372036854775807',
      ]);
    }
    const { rows } = await db.query('SELECT amount, big, at FROM contract_items ORDER BY id');
    expect(rows.map((r) => r.amount)).toEqual(amounts);
    expect(rows[0]?.big).toBe('9223372036854775807');
    expect(rows[0]?.at).toBeInstanceOf(Date);
    const calc = await db.query(
      'SELECT 0.1 + 0.2 AS sum, count(*) AS n, ARRAY[1.50, -2]::numeric[] AS arr FROM contract_items',
    );
    expect(calc.rows[0]).toEqual({ sum: '0.3', n: '3', arr: ['1.50', '-2'] });
    await db.query('DELETE FROM contract_items');
  });

  it('round-trips parameters and reports rowCount', async () => {
    const at = new Date('2024-02-29T12:34:56.789Z');
    const { rows } = await db.query(
      'SELECT $1::text AS t, $2::int AS i, $3::boolean AS b, $4::text AS n, $5::timestamptz AS at, $6::jsonb AS j',
      ['héllo ✓', 42, true, null, at, { a: [1, '2'] }],
    );
    expect(rows[0]).toEqual({ t: 'héllo ✓', i: 42, b: true, n: null, at, j: { a: [1, '2'] } });
    expect((await db.query('UPDATE contract_counter SET n = n WHERE id = $1', [1])).rowCount).toBe(1);
  });

  it('runs several statements when there are no params, returning the last result', async () => {
    const r = await db.query('SELECT 1 AS x; SELECT 2 AS y');
    expect(r.rows).toEqual([{ y: 2 }]);
    const inTx = await db.transaction((tx) => tx.query('SELECT 3 AS z; SELECT 4 AS w'));
    expect(inTx.rows).toEqual([{ w: 4 }]);
  });

  it('prepares a statement sent with params (even none) once, and keeps working after one fails', async () => {
    const sql = 'SELECT $1::int * 2 AS n, count(*)::int AS items FROM contract_items';
    for (const i of [1, 2, 3]) expect((await db.query(sql, [i])).rows).toEqual([{ n: 2 * i, items: 0 }]);
    // One session on PGlite, so its prepared statements are all in view; the pool's are per connection.
    const count = 'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1';
    if (name === 'pglite') expect((await db.query(count, [sql])).rows).toEqual([{ n: 1 }]);
    await expect(db.query('SELECT 1 / $1::int AS n', [0])).rejects.toMatchObject({ code: '22012' });
    expect((await db.query('SELECT 1 / $1::int AS n', [1])).rows).toEqual([{ n: 1 }]);
    // Text that does not parse is never kept: the same error again, not a missing statement.
    for (let i = 0; i < 2; i++) await expect(db.query('SELEC $1::int', [1])).rejects.toMatchObject({ code: '42601' });
    expect((await db.query('SELECT count(*)::int AS n FROM contract_items', [])).rows).toEqual([{ n: 0 }]);
    // With params, even none, it is one statement.
    await expect(db.query('SELECT 1 AS x; SELECT 2 AS y', [])).rejects.toMatchObject({ code: '42601' });
    // A failing prepared statement aborts its transaction, which rolls back whole.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO contract_items (id) VALUES ($1)', [7]);
        await tx.query('SELECT 1 / $1::int', [0]);
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await ids()).toEqual([]);
  });

  it('commits on resolve and rolls back on throw', async () => {
    await expect(
      db.transaction(async (tx) => (await tx.query('INSERT INTO contract_items (id) VALUES (1)')).rowCount),
    ).resolves.toBe(1);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO contract_items (id) VALUES (2)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await ids()).toEqual([1]);
  });

  it('runs statements sent at once in one transaction, and a transaction without statements', async () => {
    // Statements sent without waiting for each other still land inside the one transaction.
    await expect(
      db.transaction(async (tx) => {
        await Promise.all([
          tx.query('INSERT INTO contract_items (id) VALUES (4)'),
          tx.query('INSERT INTO contract_items (id) VALUES (5)'),
        ]);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    await expect(db.transaction(async () => 'nothing sent')).resolves.toBe('nothing sent');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO contract_items (id) VALUES (1)'); // its first statement fails
      }),
    ).rejects.toThrow();
    expect(await ids()).toEqual([1]);
  });

  it('rejects a transaction whose callback swallowed a statement error', async () => {
    const tx = db.transaction(async (t) => {
      await t.query('INSERT INTO contract_items (id) VALUES (3)');
      await t.query('INSERT INTO contract_items (id) VALUES (1)').catch(() => 'swallowed');
    });
    await expect(tx).rejects.toThrow();
    expect(await ids()).toEqual([1]);
  });

  it('isolates concurrent transactions (the PGlite shared-session trap)', async () => {
    const failing = db.transaction(async (tx) => {
      await tx.query('INSERT INTO contract_items (id) VALUES (10)');
      await sleep(50);
      throw new Error('rolled back');
    });
    const committing = db.transaction(async (tx) => {
      await tx.query('INSERT INTO contract_items (id) VALUES (11)');
    });
    const plain = db.query('INSERT INTO contract_items (id) VALUES ($1)', [12]);
    await expect(failing).rejects.toThrow('rolled back');
    await committing;
    await plain;
    expect(await ids()).toEqual([1, 11, 12]);
  });

  it('serializes 20 concurrent read-modify-write transactions', async () => {
    const bump = () =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query<{ n: number }>('SELECT n FROM contract_counter WHERE id = 1 FOR UPDATE');
        await sleep(1);
        await tx.query('UPDATE contract_counter SET n = $1 WHERE id = 1', [(rows[0]?.n ?? 0) + 1]);
      });
    await Promise.all(Array.from({ length: 20 }, bump));
    expect((await db.query('SELECT n FROM contract_counter WHERE id = 1')).rows[0]?.n).toBe(20);
  });

  it('rejects db calls from inside a transaction callback instead of hanging', { timeout: 3000 }, async () => {
    await expect(db.transaction(() => db.query('SELECT 1'))).rejects.toThrow(/inside a db\.transaction\(\) callback/);
    await expect(db.transaction(() => db.transaction(async () => 1))).rejects.toThrow(/inside a db\.transaction/);
    // Once the callback has settled, work it left behind may use the db again.
    let later: Promise<unknown> | undefined;
    await db.transaction(async () => {
      later = sleep(10).then(() => db.query('SELECT 1 AS ok'));
    });
    await expect(later).resolves.toMatchObject({ rows: [{ ok: 1 }] });
  });

  it('delivers NOTIFY from committed transactions only', async () => {
    const got: string[] = [];
    const unlisten = await db.listen('contract_events', (p) => got.push(p));
    const notify = (payload: string) => (tx: { query: Db['query'] }) =>
      tx.query('SELECT pg_notify($1, $2)', ['contract_events', payload]);
    await db.transaction(notify('committed'));
    await db
      .transaction(async (tx) => {
        await notify('rolled back')(tx);
        throw new Error('abort');
      })
      .catch(() => undefined);
    await db.transaction(notify('marker'));
    await vi.waitFor(() => expect(got).toContain('marker'));
    expect(got).toEqual(['committed', 'marker']);
    await unlisten();
    await expect(db.listen('Bad-Name', () => undefined)).rejects.toThrow(/Invalid channel/);
  });

  it.runIf(name === 'postgres')(
    'when several channels are subscribed at once, then the listener runs one query at a time and each channel hears its NOTIFY',
    async () => {
      // node-postgres queues a query sent while another runs on the client, deprecated (pg@9 refuses it).
      let overlapping = 0;
      const query = pg.Client.prototype.query;
      const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args) {
        if ((this as unknown as { _queryQueue: unknown[] })._queryQueue.length > 0) overlapping++;
        return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
      });
      const got: string[] = [];
      try {
        const channels = ['contract_c1', 'contract_c2', 'contract_c3', 'contract_c4'];
        const unlistens = await Promise.all(channels.map((c) => db.listen(c, (p) => got.push(`${c}:${p}`))));
        await db.query(`SELECT ${channels.map((c) => `pg_notify('${c}', 'x')`).join(', ')}`);
        await vi.waitFor(() => expect(got.sort()).toEqual(channels.map((c) => `${c}:x`)));
        await Promise.all(unlistens.map((unlisten) => unlisten()));
      } finally {
        spy.mockRestore();
      }
      expect(overlapping).toBe(0);
    },
  );

  it.runIf(name === 'postgres')(
    'survives losing the listener connection and resubscribes on the next listen',
    async () => {
      const got: string[] = [];
      await db.listen('contract_a', (p) => got.push(`a:${p}`));
      await db.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      );
      await sleep(100);
      await db.listen('contract_b', (p) => got.push(`b:${p}`));
      await db.query("SELECT pg_notify('contract_a', '1'), pg_notify('contract_b', '2')");
      await vi.waitFor(() => expect(got.sort()).toEqual(['a:1', 'b:2']));
    },
  );

  it('applies migrations once, in name order, atomically', async () => {
    const dir = await migrationsDir(MIGRATIONS);
    try {
      expect(await migrate(db, dir)).toEqual(['0001-a.sql', '0002-b.sql', '0010-c.sql']);
      expect(await migrate(db, dir)).toEqual([]);
      const log = await db.query<{ step: string }>('SELECT step FROM mig_log ORDER BY seq');
      expect(log.rows.map((r) => r.step)).toEqual(['a', 'b', 'c']);
      await writeFile(join(dir, '0011-ok.sql'), 'CREATE TABLE mig_ok (x int);');
      await writeFile(join(dir, '0012-bad.sql'), 'SELECT * FROM no_such_table;');
      await expect(migrate(db, dir)).rejects.toThrow(/no_such_table/);
      const left = await db.query(
        "SELECT to_regclass('mig_ok') AS t, (SELECT count(*) FROM schema_migrations WHERE name IN ('0010-c.sql', '0011-ok.sql', '0012-bad.sql')) AS n",
      );
      expect(left.rows[0]).toEqual({ t: null, n: '1' });
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it.runIf(name === 'postgres')('applies each migration once when two instances migrate concurrently', async () => {
    const dir = await migrationsDir(MIGRATIONS);
    const database = await createPostgresDatabase();
    const [a, b] = await Promise.all([
      openPostgres({ connectionString: database.url }),
      openPostgres({ connectionString: database.url }),
    ]);
    try {
      const [ra, rb] = await Promise.all([migrate(a, dir), migrate(b, dir)]);
      expect([...ra, ...rb].sort()).toEqual(['0001-a.sql', '0002-b.sql', '0010-c.sql']);
      const log = await a.query<{ step: string }>('SELECT step FROM mig_log ORDER BY seq');
      expect(log.rows.map((r) => r.step)).toEqual(['a', 'b', 'c']);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await database.drop();
      await rm(dir, { recursive: true });
    }
  });
});
