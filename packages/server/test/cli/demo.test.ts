/**
 * `tare demo` gets a demo key without touching data; only `tare demo --reset` re-seeds the demo
 * shop, after saying what it overwrites and a yes (on a terminal) or `--yes`.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandContext, UsageError } from '../../src/cli/command.js';
import { confirmOnTerminal } from '../../src/cli/confirm.js';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import { demoCommand } from '../../src/cli/demo.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import { SecretKey } from '../../src/secrets/secret-key.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import type { Db } from '../../src/store/db.js';
import { storeResponse } from '../../src/store/repositories/idempotency.js';
import { testDrivers } from '../support/databases.js';

const KEY_LINE = /^ {2}apik_[a-z2-7]{16}_[0-9A-Za-z]{32,}$/;

describe.each(testDrivers({ citus: true }))('tare demo on $name', ({ create }) => {
  let db: Db;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  async function demo(args: string[] = []) {
    const out: string[] = [];
    let changes = 0;
    const ctx: CommandContext = {
      db,
      gateway: createLocalGateway(),
      keyring: createKeyring({ current: SecretKey.generate() }),
      io: { out: (line) => out.push(line), err: (line) => out.push(line) },
      changed: () => {
        changes++;
      },
    };
    const code = await demoCommand(ctx, args);
    return { code, out, changes };
  }

  /** The coffee's exact stock, and every ledger row and order of the demo shop: equal means untouched. */
  async function demoData() {
    const query = async (sql: string) =>
      (await db.query(`${sql.replace('$SHOP', '(SELECT id FROM shops WHERE domain = $1)')}`, [DEMO_SHOP])).rows;
    return {
      coffee: await query(`SELECT total, unit FROM inventory_levels WHERE shop_id = $SHOP AND variant_id = '2001'`),
      ledger: await query('SELECT * FROM inventory_ledger WHERE shop_id = $SHOP ORDER BY id'),
      variants: await query('SELECT * FROM variants WHERE shop_id = $SHOP ORDER BY id'),
      shop: await query('SELECT * FROM shops WHERE id = $SHOP'),
    };
  }

  it('when there is no demo shop, then it loads it and prints a key', async () => {
    const first = await demo();
    expect(first.code).toBe(0);
    expect(first.out[0]).toBe(`Demo shop ${DEMO_SHOP} is loaded. Its API key (shown once):`);
    expect(first.out[2]).toMatch(KEY_LINE);
    expect((await demoData()).coffee).toEqual([{ total: '12.75', unit: 'kg' }]);
  });

  it('when the demo shop has other stock, then it prints a new key and leaves every figure and ledger row as they are', async () => {
    // The merchant received 7.5 kg of coffee (20.25 kg now).
    const restocked = structuredClone(DEMO_CATALOG);
    restocked.shops[0]!.products![0]!.variants[0]!.inventory = [
      { locationId: '70001', quantity: { value: 20.25, unit: 'kg' } },
    ];
    await importCatalog({ db, gateway: createLocalGateway() }, restocked);
    const before = await demoData();
    expect(before.coffee).toEqual([{ total: '20.25', unit: 'kg' }]);

    const again = await demo(['http://127.0.0.1:4321']);
    expect(again.code).toBe(0);
    expect(again.out[0]).toBe(
      `Demo shop ${DEMO_SHOP} is already loaded; its data is left as it is. A new API key for it (shown once):`,
    );
    expect(again.out[2]).toMatch(KEY_LINE);
    expect(again.out).toContain(
      `  curl -H "Authorization: Bearer ${again.out[2]!.trim()}" "http://127.0.0.1:4321/api/v1/app-settings?locale=en"`,
    );
    expect(again.changes).toBe(0);
    expect(await demoData()).toEqual(before);
  });

  it('when --reset is not confirmed with --yes, then it refuses with a usage error and writes nothing', async () => {
    const before = await demoData();
    const attempt = demo(['--reset']);
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(attempt).rejects.toThrow(
      `demo --reset overwrites ${DEMO_SHOP}'s settings, products, stock and order 5001 with the demo's; run it on a terminal to confirm, or add --yes`,
    );
    await expect(demo(['--yes'])).rejects.toThrow('demo: --yes only confirms --reset');
    expect(await demoData()).toEqual(before);
  });

  it('when --reset --yes, then the demo stock is back, booked as an import, and it says so', async () => {
    const ledgerBefore = (await demoData()).ledger.length;
    // An answer stored under a key (a guide's `receipt-8812`), and another shop's.
    const keysOf = async (domain: string) =>
      (
        await db.query<{ key: string }>(
          'SELECT key FROM idempotency_keys WHERE shop_id = (SELECT id FROM shops WHERE domain = $1)',
          [domain],
        )
      ).rows.map((row) => row.key);
    const other = structuredClone(DEMO_CATALOG);
    other.shops[0]!.domain = 'other-shop.example';
    await importCatalog({ db, gateway: createLocalGateway() }, other);
    for (const domain of [DEMO_SHOP, 'other-shop.example']) {
      const [{ id }] = (await db.query<{ id: string }>('SELECT id FROM shops WHERE domain = $1', [domain])).rows as [
        { id: string },
      ];
      const answer = { fingerprint: Buffer.from('f'), status: 200, body: '{}', requestId: 'req_1' };
      await storeResponse(db, id, 'receipt-8812', answer, 24);
    }
    const reset = await demo(['--reset', '--yes']);
    expect(reset.code).toBe(0);
    expect(reset.out[0]).toMatch(
      new RegExp(
        `^Demo shop ${DEMO_SHOP} is reset to the demo's data \\(\\d+ change\\(s\\) written\\)\\. A new API key`,
      ),
    );
    expect(reset.changes).toBe(1);
    const after = await demoData();
    expect(after.coffee).toEqual([{ total: '12.75', unit: 'kg' }]);
    expect(after.ledger.length).toBe(ledgerBefore + 1);
    // The stored answers were about data the reset replaced: a key applies again; other shops keep theirs.
    expect(await keysOf(DEMO_SHOP)).toEqual([]);
    expect(await keysOf('other-shop.example')).toEqual(['receipt-8812']);
  });

  it('when a Comté variant was unlinked and stocked on its own, then --reset links it to the wheel again', async () => {
    // The merchant sold the 250 g packs from a stock of their own: 3 kg.
    const unlinked = structuredClone(DEMO_CATALOG);
    const pack = unlinked.shops[0]!.products!.flatMap((product) => product.variants).find((v) => v.id === '2702')!;
    pack.stockItemId = null;
    pack.inventory = [{ locationId: '70001', quantity: { value: 3, unit: 'kg' } }];
    await importCatalog({ db, gateway: createLocalGateway() }, unlinked);
    const packRow = async () =>
      (
        await db.query<{ stock_item_id: string | null }>(
          `SELECT stock_item_id FROM variants WHERE shop_id = (SELECT id FROM shops WHERE domain = $1) AND id = '2702'`,
          [DEMO_SHOP],
        )
      ).rows[0];
    expect(await packRow()).toEqual({ stock_item_id: null });

    const reset = await demo(['--reset', '--yes']);
    expect(reset.code).toBe(0);
    expect(await packRow()).toEqual({ stock_item_id: '6001' });
    const wheel = await db.query<{ total: string }>(
      `SELECT total::text AS total FROM stock_item_levels WHERE shop_id = (SELECT id FROM shops WHERE domain = $1)`,
      [DEMO_SHOP],
    );
    expect(wheel.rows.map((row) => Number(row.total))).toEqual([4.5]);
  });
});

describe('asking before a command overwrites data', () => {
  const terminal = (answer: string | null, isTTY = true) => {
    const input = Object.assign(new PassThrough(), { isTTY });
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    // Answered once the question is out, as a person would.
    output.once('data', () => (answer === null ? input.end() : input.write(`${answer}\n`)));
    return { streams: { input, output }, shown: () => shown };
  };

  it('when a person at a terminal answers y, then it showed what --reset overwrites and runs with --yes', async () => {
    const t = terminal('y');
    expect(await confirmOnTerminal('demo', ['--reset'], t.streams)).toEqual(['--reset', '--yes']);
    expect(t.shown()).toContain(`tare demo --reset puts ${DEMO_SHOP} back as the demo ships it. It overwrites:`);
    expect(t.shown()).toContain('2001 → 12.75 kg');
    expect(t.shown()).toContain('Continue? [y/N] ');
  });

  it.each([['n'], [''], [null]])('when the answer is %j, then nothing runs', async (answer) => {
    expect(await confirmOnTerminal('demo', ['--reset'], terminal(answer).streams)).toBeUndefined();
  });

  it('when there is no terminal, or nothing to overwrite, or --yes, then it asks nothing', async () => {
    for (const [args, isTTY] of [
      [['--reset'], false],
      [[], true],
      [['--reset', '--yes'], true],
    ] as const) {
      const t = terminal('n', isTTY);
      expect(await confirmOnTerminal('demo', [...args], t.streams)).toEqual(args);
      expect(t.shown()).toBe('');
    }
  });
});
