import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/cli/command.js';
import { keysCommand } from '../../src/cli/keys.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';

const LOCAL = /^\d{4}-\d\d-\d\d \d\d:\d\d$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(testDrivers({ citus: true }))('tare keys list on $name', ({ create }) => {
  let db: Db;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db.close();
  });

  async function keys(args: string[]): Promise<string[]> {
    const out: string[] = [];
    const ctx: CommandContext = {
      db,
      gateway: createLocalGateway(),
      keyring: createKeyring({}),
      io: { out: (line) => out.push(line), err: () => {} },
      changed: () => {},
    };
    expect(await keysCommand(ctx, args)).toBe(0);
    return out;
  }

  it('when keys are listed, then they are an aligned table in local time, or JSON with --json', async () => {
    const { domain, keyId } = await seedShop(db);
    await keys(['create', '--shop', domain, '--name', 'pos terminal', '--expires-at', '2099-06-30T00:00:00Z']);
    const [header, ...rows] = await keys(['list', '--shop', domain]);
    expect(header!.split(/ {2,}/)).toEqual(['KEY ID', 'SHOP', 'NAME', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED']);
    expect(rows).toHaveLength(2);
    const cells = rows.map((row) => row.split(/ {2,}/));
    expect(cells[0]).toEqual([keyId, domain, '-', expect.stringMatching(LOCAL), '-', '-', '-']);
    expect(cells[1]).toEqual([
      expect.any(String),
      domain,
      'pos terminal',
      expect.stringMatching(LOCAL),
      expect.stringMatching(LOCAL),
      '-',
      '-',
    ]);
    // Every column starts where its title does, on every row.
    for (const title of ['SHOP', 'NAME', 'CREATED', 'EXPIRES', 'REVOKED']) {
      const at = header!.indexOf(title);
      for (const row of rows) expect([row[at - 1], row[at] === ' '], title).toEqual([' ', false]);
    }

    const json = JSON.parse((await keys(['list', '--shop', domain, '--json'])).join('\n'));
    expect(json).toEqual([
      {
        keyId,
        shop: domain,
        name: null,
        createdAt: expect.stringMatching(ISO),
        expiresAt: null,
        revokedAt: null,
        lastUsedAt: null,
      },
      {
        keyId: cells[1]![0],
        shop: domain,
        name: 'pos terminal',
        createdAt: expect.stringMatching(ISO),
        expiresAt: '2099-06-30T00:00:00.000Z',
        revokedAt: null,
        lastUsedAt: null,
      },
    ]);
  });
});
