import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonCommand } from '../../src/cli/addon.js';
import type { CommandContext } from '../../src/cli/command.js';
import { UsageError } from '../../src/cli/command.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, shopFixture } from '../support/harness.js';

describe.each(testDrivers({ citus: true }))('tare addon on $name', ({ create }) => {
  let db: Db;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db.close();
  });

  function context() {
    const out: string[] = [];
    let changed = 0;
    const ctx: CommandContext = {
      db,
      gateway: createLocalGateway(),
      keyring: createKeyring({}),
      io: { out: (line) => out.push(line), err: (line) => out.push(line) },
      changed: () => {
        changed++;
      },
    };
    return { ctx, out, changes: () => changed };
  }

  const addonOf = async (domain: string) =>
    (await db.query<{ addon_active: boolean }>('SELECT addon_active FROM shops WHERE domain = $1', [domain])).rows[0]
      ?.addon_active;

  it('when the add-on is disabled and enabled again, then the shop row follows and caches are told', async () => {
    const { domain } = await seedShop(db, shopFixture({ addonActive: true }));
    const run = context();

    expect(await addonCommand(run.ctx, ['disable', '--shop', domain])).toBe(0);
    expect(await addonOf(domain)).toBe(false);
    expect(await addonCommand(run.ctx, ['enable', '--shop', domain])).toBe(0);
    expect(await addonOf(domain)).toBe(true);
    expect(run.out).toEqual([
      `order-editing add-on disabled for ${domain}`,
      `order-editing add-on enabled for ${domain}`,
    ]);
    expect(run.changes()).toBe(2);
  });

  it('when the shop is unknown, then it fails and changes nothing', async () => {
    const run = context();
    await expect(addonCommand(run.ctx, ['enable', '--shop', 'nope.example'])).rejects.toThrow("No shop 'nope.example'");
    expect(run.changes()).toBe(0);
  });

  it.each([[[]], [['on', '--shop', 'a.example']], [['enable']], [['enable', '--shop']], [['enable', 'a.example']]])(
    'when the arguments are %j, then it is a usage error',
    async (args) => {
      await expect(addonCommand(context().ctx, args)).rejects.toThrow(UsageError);
    },
  );
});
