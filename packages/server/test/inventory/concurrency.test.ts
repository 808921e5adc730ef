import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dec, decimalFromJson, toPlainString } from '../../src/domain/decimal.js';
import { convertForStorage } from '../../src/domain/units.js';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/pg-driver.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import { lockLevel, lockLevelsForWrite } from '../../src/store/repositories/inventory.js';
import { lockShopOrders } from '../../src/store/repositories/order-bookings.js';
import { queueProjections } from '../../src/store/repositories/projection-outbox.js';
import { type ServerDatabase, serverDrivers, someoneWaitsForALock, testDrivers } from '../support/databases.js';
import { call, seedShop, shopFixture, startTestServer, variantFixture } from '../support/harness.js';

const LOCATION = '70001';
/** Ten variants whose numeric order differs from their byte order, so "sorted" is not accidental. */
const BATCH_IDS = ['8', '9', '10', '11', '99', '100', '123', '5000', '60001', '700002'];
const SINGLE_ID = '2001';

type Answer = Awaited<ReturnType<typeof call>>;

/** One shop: variant 2001 (kg per 1) and the ten batch variants (kg per 0.25), with `stock` in kg. */
function concurrencyShop(stock: Record<string, number> = {}, domain?: string) {
  const variant = (id: string, unitValue: number) => ({
    ...variantFixture(id, 'kg', unitValue),
    ...(id in stock ? { inventory: [{ locationId: LOCATION, quantity: { value: stock[id]!, unit: 'kg' } }] } : {}),
  });
  return shopFixture({
    ...(domain ? { domain } : {}),
    products: [
      { id: '1001', title: 'Single', measurementType: 'weight', variants: [variant(SINGLE_ID, 1)] },
      { id: '1002', title: 'Batch', measurementType: 'weight', variants: BATCH_IDS.map((id) => variant(id, 0.25)) },
    ],
  });
}

async function seedConcurrencyShop(db: Db) {
  return seedShop(db, concurrencyShop());
}

/** The i-th writer's delta: exact decimals of both signs, in kg or g (g→kg is exact). */
function deltaOf(i: number): { value: number; unit: string } {
  const sign = i % 4 === 3 ? '-' : '';
  const text = `${sign}${i % 7}.${String((i * 7919) % 1000).padStart(3, '0')}${i % 3}`;
  return { value: Number(text), unit: i % 5 === 0 ? 'g' : 'kg' };
}

function inKg(delta: { value: number; unit: string }): Dec {
  return convertForStorage(decimalFromJson(delta.value), delta.unit, 'kg');
}

function adjust(
  server: RunningServer,
  key: string,
  idempotencyKey: string,
  adjustments: { variantId: string; delta: { value: number; unit: string } }[],
): Promise<Answer> {
  return call(server, '/api/v1/inventory/adjustments', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ locationId: LOCATION, adjustments }),
  });
}

function expectAllOk(answers: Answer[]) {
  const bad = answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text}`);
  expect(bad).toEqual([]);
}

/**
 * The level's total, platform integer and ledger, checked for internal consistency: ledger
 * deltas sum to the total, each row's `before` is the previous row's `after` (a lost update
 * would show two rows starting from the same value), and the platform shows floor(total / unitValue).
 */
async function expectLevel(db: Db, shopId: string, variantId: string, unitValue: string, expected: Dec, rows: number) {
  const level = await db.query<{ total: string }>(
    'SELECT total FROM inventory_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3',
    [shopId, LOCATION, variantId],
  );
  const platform = await db.query<{ available: string }>(
    'SELECT available FROM local_platform_levels WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3',
    [shopId, LOCATION, variantId],
  );
  const ledger = await db.query<{ before: string; after: string; delta: string }>(
    `SELECT quantity_before AS before, quantity_after AS after, delta FROM inventory_ledger
     WHERE shop_id = $1 AND location_id = $2 AND variant_id = $3 ORDER BY id`,
    [shopId, LOCATION, variantId],
  );
  const context = `variant ${variantId}`;
  expect(toPlainString(new Dec(level.rows[0]!.total)), context).toBe(toPlainString(expected));
  expect(ledger.rows.length, context).toBe(rows);
  const sum = ledger.rows.reduce((acc, r) => acc.plus(r.delta), new Dec(0));
  expect(toPlainString(sum), context).toBe(toPlainString(expected));
  const chain = ledger.rows.map((r, i) => ({
    i,
    before: toPlainString(new Dec(r.before)),
    previousAfter: i === 0 ? '0' : toPlainString(new Dec(ledger.rows[i - 1]!.after)),
  }));
  expect(
    chain.filter((c) => c.before !== c.previousAfter),
    `${context}: ledger chain`,
  ).toEqual([]);
  expect(platform.rows[0]?.available, context).toBe(toPlainString(expected.div(unitValue).floor()));
}

describe.each(serverDrivers({ citus: true }))('concurrent inventory writes on $name', (driver) => {
  // On Citus every coordinator connection that writes opens its own to the shard's worker, and
  // a worker takes 100 (shared with the other test files running at once): 16 per instance
  // still keeps more writers in flight than a shard's row lock lets through.
  const POOL = driver.name === 'citus' ? 16 : 40;
  let database: ServerDatabase;
  let dbA: Db;
  let dbB: Db;
  let serverA: RunningServer;
  let serverB: RunningServer;

  beforeAll(async () => {
    database = await driver.database();
    dbA = await openPostgres({ connectionString: database.url, max: POOL });
    // A second instance: its own pool on the same database, its own server.
    dbB = await openPostgres({ connectionString: database.url, max: POOL });
    serverA = await startTestServer(dbA);
    serverB = await startTestServer(dbB);
  });

  afterAll(async () => {
    await serverA?.close();
    await serverB?.close();
    await dbA?.close();
    await dbB?.close();
    await database?.drop();
  });

  it('when 32 writers adjust one variant at once, then every delta is applied exactly once', async () => {
    const { key, shopId } = await seedConcurrencyShop(dbA);
    const deltas = Array.from({ length: 32 }, (_, i) => deltaOf(i));

    const answers = await Promise.all(
      deltas.map((delta, i) => adjust(serverA, key, `one-${i}-${randomUUID()}`, [{ variantId: SINGLE_ID, delta }])),
    );

    expectAllOk(answers);
    const expected = deltas.reduce((acc, d) => acc.plus(inKg(d)), new Dec(0));
    await expectLevel(dbA, shopId, SINGLE_ID, '1', expected, 32);
  });

  it('when 48 writers split across two app instances on one database adjust one variant, then no update is lost', async () => {
    const { key, shopId } = await seedConcurrencyShop(dbA);
    const deltas = Array.from({ length: 48 }, (_, i) => deltaOf(i + 100));

    const answers = await Promise.all(
      deltas.map((delta, i) =>
        adjust(i % 2 ? serverB : serverA, key, `two-${i}-${randomUUID()}`, [{ variantId: SINGLE_ID, delta }]),
      ),
    );

    expectAllOk(answers);
    const expected = deltas.reduce((acc, d) => acc.plus(inKg(d)), new Dec(0));
    await expectLevel(dbB, shopId, SINGLE_ID, '1', expected, 48);
  });

  it('when 20 ten-variant batches in opposite orders run at once on two instances, then none deadlocks and each applies whole', async () => {
    const { key, shopId } = await seedConcurrencyShop(dbA);
    const requests = Array.from({ length: 20 }, (_, r) => {
      const order = r % 2 ? [...BATCH_IDS].reverse() : BATCH_IDS;
      return {
        idempotencyKey: `batch-${r}-${randomUUID()}`,
        server: r % 4 < 2 ? serverA : serverB,
        adjustments: order.map((variantId, v) => ({ variantId, delta: deltaOf(r * 10 + v) })),
      };
    });

    const answers = await Promise.all(requests.map((q) => adjust(q.server, key, q.idempotencyKey, q.adjustments)));

    expectAllOk(answers);
    for (const [r, answer] of answers.entries()) {
      expect(answer.body.data.results.map((x: { variantId: string }) => x.variantId)).toEqual(
        requests[r]!.adjustments.map((a) => a.variantId),
      );
    }
    const perKey = await dbA.query<{ idempotency_key: string; n: string }>(
      `SELECT idempotency_key, count(*)::text AS n FROM inventory_ledger WHERE shop_id = $1 GROUP BY idempotency_key`,
      [shopId],
    );
    expect(Object.fromEntries(perKey.rows.map((row) => [row.idempotency_key, Number(row.n)]))).toEqual(
      Object.fromEntries(requests.map((q) => [q.idempotencyKey, BATCH_IDS.length])),
    );
    for (const variantId of BATCH_IDS) {
      const expected = requests.reduce(
        (acc, q) => acc.plus(inKg(q.adjustments.find((a) => a.variantId === variantId)!.delta)),
        new Dec(0),
      );
      await expectLevel(dbA, shopId, variantId, '0.25', expected, requests.length);
    }
  });

  it('when batches in opposite orders and single-entry writes race while half their levels exist and half are created, then none deadlocks and each applies whole', async () => {
    const { key, shopId } = await seedConcurrencyShop(dbA);
    // Every other variant gets its level first: the batches then lock existing levels and create
    // the others at once, on both instances.
    const existing = BATCH_IDS.filter((_, i) => i % 2 === 0);
    expectAllOk([
      await adjust(
        serverA,
        key,
        `first-${randomUUID()}`,
        existing.map((variantId) => ({ variantId, delta: deltaOf(1) })),
      ),
    ]);
    const batches = Array.from({ length: 20 }, (_, r) => ({
      idempotencyKey: `mixed-${r}-${randomUUID()}`,
      server: r % 4 < 2 ? serverA : serverB,
      adjustments: (r % 2 ? [...BATCH_IDS].reverse() : BATCH_IDS).map((variantId, v) => ({
        variantId,
        delta: deltaOf(r * 10 + v + 3),
      })),
    }));
    // Single-entry writes take their own short lock statement (or the upsert when the level is new).
    const singles = BATCH_IDS.flatMap((variantId, v) =>
      [0, 1].map((n) => ({
        idempotencyKey: `mixed-single-${v}-${n}-${randomUUID()}`,
        server: n ? serverB : serverA,
        adjustments: [{ variantId, delta: deltaOf(300 + v * 2 + n) }],
      })),
    );
    const requests = batches.flatMap((batch, r) => [batch, singles[r]!]);

    const answers = await Promise.all(requests.map((q) => adjust(q.server, key, q.idempotencyKey, q.adjustments)));

    expectAllOk(answers);
    for (const variantId of BATCH_IDS) {
      const first = existing.includes(variantId) ? inKg(deltaOf(1)) : new Dec(0);
      const mine = requests.flatMap((q) => q.adjustments.filter((a) => a.variantId === variantId));
      const expected = mine.reduce((acc, a) => acc.plus(inKg(a.delta)), first);
      await expectLevel(dbA, shopId, variantId, '0.25', expected, mine.length + (existing.includes(variantId) ? 1 : 0));
    }
  });

  it("when a stock notice holds the shop's order lock and waits for a level whose writer then queues a push, then neither deadlocks", async () => {
    const { key, shopId } = await seedConcurrencyShop(dbA);
    expectAllOk([await adjust(serverA, key, `create-${randomUUID()}`, [{ variantId: SINGLE_ID, delta: deltaOf(1) }])]);
    const level = { shopId, locationId: LOCATION, variantId: SINGLE_ID };
    let levelLocked!: () => void;
    const writerHoldsLevel = new Promise<void>((resolve) => (levelLocked = resolve));
    // As an inventory write: the level, then a row naming the shop (its foreign-key check locks the shop row).
    const writer = dbA.transaction(async (tx) => {
      await lockLevelsForWrite(tx, shopId, LOCATION, [SINGLE_ID]);
      levelLocked();
      await someoneWaitsForALock(dbB); // the notice below holds the shop's order lock and waits for the level
      await queueProjections(
        tx,
        shopId,
        [{ locationId: LOCATION, variantId: SINGLE_ID, available: 7, expected: 1 }],
        'test',
      );
    });
    // As followLevel: the shop's order lock, then the level.
    const notice = (async () => {
      await writerHoldsLevel;
      return dbB.transaction(async (tx) => {
        await lockShopOrders(tx, shopId);
        return lockLevel(tx, level);
      });
    })();
    await expect(Promise.all([writer, notice])).resolves.toBeDefined();
  });

  /**
   * Runs `victim`, which locks levels '10' then '9' (writes and imports take them in byte order),
   * against a transaction that holds '9' and then asks for '10'. PostgreSQL must abort one of
   * them; the other one's deadlock check waits 10 s, so the victim's runs first and it is aborted.
   */
  async function againstReverseLocker<T>(shopId: string, victim: () => Promise<T>): Promise<T> {
    let nineLocked!: () => void;
    const holdsNine = new Promise<void>((resolve) => (nineLocked = resolve));
    const other = dbB.transaction(async (tx) => {
      // On Citus the lock is waited for on the shard's worker: the setting goes there too.
      if (driver.name === 'citus') await tx.query(`SET LOCAL citus.propagate_set_commands = 'local'`);
      await tx.query(`SET LOCAL deadlock_timeout = '10s'`);
      await lockLevelsForWrite(tx, shopId, LOCATION, ['9']);
      nineLocked();
      await someoneWaitsForALock(dbA); // the victim holds '10' and waits for '9'
      await lockLevelsForWrite(tx, shopId, LOCATION, ['10']);
    });
    const result = await holdsNine.then(victim);
    await other;
    return result;
  }

  it('when a write and another transaction lock two levels in opposite orders, then the write PostgreSQL aborts runs again and answers 200', async () => {
    const { key, shopId } = await seedConcurrencyShop(dbA);
    const both = (i: number) => [
      { variantId: '9', delta: deltaOf(i) },
      { variantId: '10', delta: deltaOf(i + 1) },
    ];
    expectAllOk([await adjust(serverA, key, `create-${randomUUID()}`, both(1))]);
    const idempotencyKey = `deadlock-${randomUUID()}`;
    const first = await againstReverseLocker(shopId, () => adjust(serverA, key, idempotencyKey, both(2)));
    expectAllOk([first]);
    // The key was claimed by the attempt that committed: a retry of the request replays its answer.
    const replay = await adjust(serverA, key, idempotencyKey, both(2));
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.text]).toEqual([200, 'true', first.text]);
    await expectLevel(dbA, shopId, '9', '0.25', inKg(deltaOf(1)).plus(inKg(deltaOf(2))), 2);
    await expectLevel(dbA, shopId, '10', '0.25', inKg(deltaOf(2)).plus(inKg(deltaOf(3))), 2);
  });

  it('when an import and another transaction lock two levels in opposite orders, then the import PostgreSQL aborts runs again and applies whole', async () => {
    const { key, shopId, domain } = await seedConcurrencyShop(dbA);
    expectAllOk([
      await adjust(serverA, key, `create-${randomUUID()}`, [
        { variantId: '9', delta: { value: 1, unit: 'kg' } },
        { variantId: '10', delta: { value: 1, unit: 'kg' } },
      ]),
    ]);
    const checked = validateImport({ shops: [concurrencyShop({ '9': 7.25, '10': 8.5 }, domain)] });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    const imported = await againstReverseLocker(shopId, () =>
      importCatalog({ db: dbA, gateway: createLocalGateway() }, checked.value),
    );
    expect(imported.shops[0]!.changes).toBeGreaterThan(0);
    await expectLevel(dbA, shopId, '9', '0.25', new Dec('7.25'), 2);
    await expectLevel(dbA, shopId, '10', '0.25', new Dec('8.5'), 2);
  });

  // The row trigger below writes a table of the coordinator, which a trigger on a worker's shard
  // cannot reach; the statements counted are the same on Citus.
  it.skipIf(driver.name === 'citus')(
    'when a level that exists is adjusted, then its row is written once (locking it writes nothing)',
    async () => {
      const { key } = await seedConcurrencyShop(dbA);
      expectAllOk([
        await adjust(serverA, key, `create-${randomUUID()}`, [{ variantId: SINGLE_ID, delta: deltaOf(1) }]),
      ]);
      // A row trigger counts every version written (an update of a row to itself counts too).
      await dbA.query(`CREATE TABLE IF NOT EXISTS test_level_writes (n bigint NOT NULL);
      DELETE FROM test_level_writes; INSERT INTO test_level_writes VALUES (0);
      CREATE OR REPLACE FUNCTION test_count_level_write() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN UPDATE test_level_writes SET n = n + 1; RETURN NULL; END $$;
      CREATE TRIGGER test_level_writes AFTER INSERT OR UPDATE ON inventory_levels
        FOR EACH ROW EXECUTE FUNCTION test_count_level_write()`);
      try {
        expectAllOk([
          await adjust(serverB, key, `once-${randomUUID()}`, [{ variantId: SINGLE_ID, delta: deltaOf(2) }]),
        ]);
      } finally {
        await dbA.query('DROP TRIGGER test_level_writes ON inventory_levels');
      }
      const { rows } = await dbA.query<{ n: string }>('SELECT n::text FROM test_level_writes');
      expect(rows[0]!.n).toBe('1');
    },
  );

  it('when failing batches (an unknown variant or a wrong unit last) race with good ones, then the failures leave nothing behind', async () => {
    const { key, shopId } = await seedConcurrencyShop(dbA);
    const good = Array.from({ length: 12 }, (_, r) => ({
      idempotencyKey: `good-${r}-${randomUUID()}`,
      adjustments: (r % 2 ? [...BATCH_IDS].reverse() : BATCH_IDS).map((variantId, v) => ({
        variantId,
        delta: deltaOf(r * 10 + v + 7),
      })),
    }));
    const failing = Array.from({ length: 12 }, (_, r) => ({
      idempotencyKey: `bad-${r}-${randomUUID()}`,
      unknown: r % 2 === 0,
      adjustments: [
        ...(r % 3 ? [...BATCH_IDS].reverse() : BATCH_IDS).map((variantId) => ({
          variantId,
          delta: { value: 1000, unit: 'kg' },
        })),
        r % 2 === 0
          ? { variantId: '987654321', delta: { value: 1, unit: 'kg' } }
          : { variantId: SINGLE_ID, delta: { value: 1, unit: 'm' } },
      ],
    }));
    const all = [
      ...good.map((q) => ({ ...q, expected: [200, undefined] })),
      ...failing.map((q) => ({ ...q, expected: q.unknown ? [404, 'not_found'] : [400, 'bad_request'] })),
    ];
    // Interleave so failures start between successes.
    all.sort((a, b) => a.idempotencyKey.slice(-6).localeCompare(b.idempotencyKey.slice(-6)));

    const answers = await Promise.all(
      all.map((q, i) => adjust(i % 2 ? serverB : serverA, key, q.idempotencyKey, q.adjustments)),
    );

    for (const [i, q] of all.entries()) {
      expect([answers[i]!.status, answers[i]!.body?.error?.code], answers[i]!.text).toEqual(q.expected);
    }
    const failedKeys = failing.map((q) => q.idempotencyKey);
    const leaked = await dbA.query(
      'SELECT idempotency_key FROM inventory_ledger WHERE shop_id = $1 AND idempotency_key = ANY($2::text[])',
      [shopId, failedKeys],
    );
    expect(leaked.rows).toEqual([]);
    const single = await dbA.query('SELECT total FROM inventory_levels WHERE shop_id = $1 AND variant_id = $2', [
      shopId,
      SINGLE_ID,
    ]);
    expect(single.rows).toEqual([]);
    for (const variantId of BATCH_IDS) {
      const expected = good.reduce(
        (acc, q) => acc.plus(inKg(q.adjustments.find((a) => a.variantId === variantId)!.delta)),
        new Dec(0),
      );
      await expectLevel(dbA, shopId, variantId, '0.25', expected, good.length);
    }
  });
});

describe.each(testDrivers().filter((d) => d.name === 'pglite'))(
  'concurrent inventory writes on $name',
  ({ create }) => {
    let db: Db;
    let server: RunningServer;

    beforeAll(async () => {
      db = await create();
      server = await startTestServer(db);
    });
    afterAll(async () => {
      await server?.close();
      await db?.close();
    });

    it('when 32 HTTP writers adjust one variant at once, then every delta is applied exactly once', async () => {
      const { key, shopId } = await seedConcurrencyShop(db);
      const deltas = Array.from({ length: 32 }, (_, i) => deltaOf(i + 500));

      const answers = await Promise.all(
        deltas.map((delta, i) => adjust(server, key, `pglite-${i}-${randomUUID()}`, [{ variantId: SINGLE_ID, delta }])),
      );

      expectAllOk(answers);
      const expected = deltas.reduce((acc, d) => acc.plus(inKg(d)), new Dec(0));
      await expectLevel(db, shopId, SINGLE_ID, '1', expected, 32);
    });
  },
);
