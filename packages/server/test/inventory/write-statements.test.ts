/**
 * The statements of a single-entry adjustment, the write integrators send most. Each is a round
 * trip to a worker on Citus (docs/operations.md, "Running on Citus"), so the list is held here on
 * every store: a statement added to the common write fails this test before it shows in the
 * bench (`npm run bench -- --citus`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createInventoryWriter } from '../../src/services/inventory/write-inventory.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { adjustVariant2001 } from '../support/inventory-requests.js';
import { citusTasks } from '../support/citus-plan.js';
import { recording, type Sent } from '../support/recording-db.js';

/** What a statement does, in words; the statement's start when it is none of the write's own. */
const KINDS: [RegExp, string][] = [
  [/pg_try_advisory_xact_lock/, 'claim the key'],
  [/^\s*SELECT[\s\S]* FROM inventory_levels [\s\S]*FOR UPDATE/, 'lock the level'],
  [/^\s*UPDATE inventory_levels /, 'write the level'],
  [/^\s*INSERT INTO inventory_ledger /, 'append the ledger row'],
  [/^\s*INSERT INTO idempotency_keys /, 'store the answer'],
  [/^\s*SELECT [\s\S]*FROM local_platform_levels /, "read the platform's level"],
  [/^\s*INSERT INTO local_platform_levels /, "write the platform's level"],
];
const kindOf = ({ sql }: Sent) => KINDS.find(([pattern]) => pattern.test(sql))?.[1] ?? sql.slice(0, 60);

describe.each(testDrivers({ citus: true }))('The statements of a single-entry adjustment on $name', (driver) => {
  let db: Db;
  let shopId: string;
  const sent: Sent[] = [];
  let write: ReturnType<typeof createInventoryWriter>;

  beforeAll(async () => {
    db = await driver.create();
    ({ shopId } = await seedShop(db));
    write = createInventoryWriter({ db: recording(db, sent), gateway: createLocalGateway() });
  });
  afterAll(async () => {
    await db?.close();
  });

  /** Adjusts variant 2001 (kg, sold per 1 kg) by `kg` with a key of its own; the statements it sent. */
  async function adjust(kg: number): Promise<string[]> {
    sent.length = 0;
    const answer = await adjustVariant2001(write, shopId, kg);
    expect(answer.status).toBe(200);
    return sent.map(kindOf);
  }

  const platformShows = async () =>
    (
      await db.query<{ available: string }>(
        `SELECT available::text FROM local_platform_levels WHERE shop_id = $1 AND variant_id = '2001'`,
        [shopId],
      )
    ).rows[0]?.available;

  it('when the first adjustment creates the level, then the platform is given its whole units', async () => {
    await adjust(5);
    expect(await platformShows()).toBe('5');
  });

  it("when an adjustment moves only the fraction, then it sends five statements and none to the platform's level", async () => {
    expect(await adjust(0.25)).toEqual([
      'claim the key',
      'lock the level',
      'write the level',
      'append the ledger row',
      'store the answer',
    ]);
    expect(await platformShows()).toBe('5');
  });

  it.skipIf(driver.name !== 'citus')(
    'when an adjustment claims its key, then the claim touches no shard (the node the write runs on answers it)',
    async () => {
      await adjust(0.25);
      const claim = sent.find((statement) => kindOf(statement) === 'claim the key')!;
      expect(await citusTasks(db, claim.sql, claim.params)).toBe(0);
    },
  );

  it("when an adjustment moves whole units, then the platform's level is read (locked) and written once", async () => {
    expect(await adjust(1)).toEqual([
      'claim the key',
      'lock the level',
      "read the platform's level",
      "write the platform's level",
      'write the level',
      'append the ledger row',
      'store the answer',
    ]);
    expect(await platformShows()).toBe('6');
  });
});
