// What the round trips of a write cost, apart from Tare (`npm run bench:one-call`, about 40 s):
// the raw work of a single-entry adjustment (claim the key, lock the level, update it, append
// the ledger row, store the answer) on tables of the same shape, three ways, alternating:
//   round trips  one statement at a time, as Tare and bench/raw-adjustment.ts send them (7);
//   pipelined    the same statements, BEGIN sent with the claim and the answer with COMMIT
//                (node-postgres' pipeline mode), so 5 waits;
//   one call     the same statements in one PL/pgSQL function, one round trip.
// Issue 13 asks to measure the whole write as one server-side function; decision 58 says why
// Tare's is not one. Env: BENCH_PG_URL (a database to create the temporary tables in),
// BENCH_ONE_CALL_SECONDS (per run, default 3).
import pg from 'pg';

const URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_ONE_CALL_SECONDS ?? 3);
const LEVELS = 800;
const BODY = 'x'.repeat(250); // about the size of Tare's stored answer

type Way = 'round trips' | 'pipelined' | 'one call';
const WAYS: Way[] = ['round trips', 'pipelined', 'one call'];

const CLAIM = `SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS claimed,
  (SELECT body FROM bench_oc_keys WHERE key = $1) AS stored`;
const LOCK = 'SELECT total FROM bench_oc_levels WHERE id = $1 FOR UPDATE';
const UPDATE = 'UPDATE bench_oc_levels SET total = total + $2, updated_at = now() WHERE id = $1 RETURNING total';
const LEDGER = 'INSERT INTO bench_oc_ledger (level_id, before, after, delta, key) VALUES ($1, $2, $3, $4, $5)';
const ANSWER = 'INSERT INTO bench_oc_keys (key, body) VALUES ($1, $2)';

const SCHEMA = `
  DROP TABLE IF EXISTS bench_oc_levels, bench_oc_ledger, bench_oc_keys;
  CREATE TABLE bench_oc_levels (id int PRIMARY KEY, total numeric NOT NULL, updated_at timestamptz NOT NULL);
  CREATE TABLE bench_oc_ledger (id bigserial PRIMARY KEY, level_id int NOT NULL, before numeric NOT NULL,
    after numeric NOT NULL, delta numeric NOT NULL, key text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE bench_oc_keys (key text PRIMARY KEY, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  INSERT INTO bench_oc_levels SELECT g, 1000000, now() FROM generate_series(1, ${LEVELS}) g;
  ANALYZE bench_oc_levels;
  CREATE OR REPLACE FUNCTION bench_oc_write(p_id int, p_delta numeric, p_key text, p_body text) RETURNS numeric
  LANGUAGE plpgsql AS $$
  DECLARE claimed boolean; stored text; before numeric; after numeric;
  BEGIN
    claimed := pg_try_advisory_xact_lock(hashtextextended(p_key, 0));
    SELECT body INTO stored FROM bench_oc_keys WHERE key = p_key;
    SELECT total INTO before FROM bench_oc_levels WHERE id = p_id FOR UPDATE;
    UPDATE bench_oc_levels SET total = total + p_delta, updated_at = now() WHERE id = p_id RETURNING total INTO after;
    INSERT INTO bench_oc_ledger (level_id, before, after, delta, key) VALUES (p_id, before, after, p_delta, p_key);
    INSERT INTO bench_oc_keys (key, body) VALUES (p_key, p_body);
    RETURN after;
  END $$;`;
const DROP = 'DROP TABLE bench_oc_levels, bench_oc_ledger, bench_oc_keys; DROP FUNCTION bench_oc_write';

let sequence = 0;

async function write(client: pg.Client, way: Way): Promise<void> {
  const n = sequence++;
  const id = 1 + (n % LEVELS);
  const key = `key-${process.pid}-${n}`;
  const delta = '-0.125';
  if (way === 'one call') {
    await client.query({
      name: 'write',
      text: 'SELECT bench_oc_write($1, $2, $3, $4)',
      values: [id, delta, key, BODY],
    });
    return;
  }
  const q = (name: string, text: string, values: unknown[]) => client.query({ name, text, values });
  if (way === 'pipelined') {
    const begun = client.query('BEGIN');
    await Promise.all([begun, q('claim', CLAIM, [key])]);
  } else {
    await client.query('BEGIN');
    await q('claim', CLAIM, [key]);
  }
  const before = (await q('lock', LOCK, [id])).rows[0].total as string;
  const after = (await q('update', UPDATE, [id, delta])).rows[0].total as string;
  await q('ledger', LEDGER, [id, before, after, delta, key]);
  if (way === 'pipelined') {
    await Promise.all([q('answer', ANSWER, [key, BODY]), client.query('COMMIT')]);
  } else {
    await q('answer', ANSWER, [key, BODY]);
    await client.query('COMMIT');
  }
}

async function run(way: Way, clients: number, seconds: number): Promise<number> {
  const connections = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: URL, pipeline: way === 'pipelined' } as pg.ClientConfig);
      await client.connect();
      return client;
    }),
  );
  let done = 0;
  const end = performance.now() + seconds * 1000;
  try {
    await Promise.all(
      connections.map(async (client) => {
        while (performance.now() < end) {
          await write(client, way);
          done++;
        }
      }),
    );
  } finally {
    await Promise.all(connections.map((c) => c.end()));
  }
  return done / seconds;
}

const admin = new pg.Client(URL);
await admin.connect();
try {
  await admin.query(SCHEMA);
  for (const clients of [8, 32]) {
    for (const way of WAYS) await run(way, clients, 1); // warm-up
    const rates = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
    for (let round = 0; round < 2; round++)
      for (const way of WAYS) rates.get(way)!.push(await run(way, clients, SECONDS));
    const mean = (way: Way) => rates.get(way)!.reduce((a, b) => a + b, 0) / rates.get(way)!.length;
    const base = mean('round trips');
    const line = WAYS.map((w) => `${w} ${Math.round(mean(w))} tx/s (${(mean(w) / base).toFixed(2)}×)`).join(', ');
    console.log(`${clients} clients: ${line}`);
  }
} finally {
  await admin.query(DROP).catch(() => undefined);
  await admin.end();
}
