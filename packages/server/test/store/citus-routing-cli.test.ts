import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandContext, inputText } from '../../src/cli/command.js';
import { DEMO_CATALOG, DEMO_SHOP } from '../../src/cli/demo-catalog.js';
import { STORE_COMMANDS } from '../../src/cli/store-commands.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import type { Db } from '../../src/store/db.js';
import { shardCheck } from '../support/citus-plan.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';
import { recording, type Sent } from '../support/recording-db.js';

// The merchant's CLI on Citus: every statement of a command run for one shop is planned on that
// shop's one shard (Citus's EXPLAIN), as the API's and the admin's are. The commands that report
// on every shop are cross-shop on purpose (docs/operations.md) and are not run here.

const citus = testDrivers({ citus: true }).filter((driver) => driver.name === 'citus');

describe.skipIf(citus.length === 0)("The CLI's statements for one shop on one shard on Citus", () => {
  let db: Db;
  const sent: Sent[] = [];

  beforeAll(async () => {
    db = await citus[0]!.create();
    // Another shop first, so the demo shop is not alone on the cluster.
    await seedShop(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  /** `tare NAME …args` run in this process on the recording store; what it printed on stdout. */
  async function tare(name: string, args: string[], file?: unknown): Promise<string[]> {
    const out: string[] = [];
    const err: string[] = [];
    const ctx: CommandContext = {
      db: recording(db, sent),
      gateway: createLocalGateway(),
      keyring: createKeyring({}),
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      input: file === undefined ? undefined : inputText(JSON.stringify(file)),
      changed: () => {},
    };
    const command = await STORE_COMMANDS[name]!();
    expect(await command(ctx, args), `tare ${name} ${args.join(' ')}: ${err.join('\n')}`).toBe(0);
    return out;
  }

  it('when each per-shop command is run for the demo shop, then every statement touches one shard', async () => {
    const commands = shardCheck(db, sent);
    const run = (args: string[], file?: unknown) =>
      commands.run(args.join(' '), () => tare(args[0]!, args.slice(1), file));
    await run(['demo']);
    // The demo shop again, one product renamed.
    const changed = structuredClone(DEMO_CATALOG.shops[0]!);
    changed.products!.find((product) => product.id === '1001')!.title = 'Arabica, roasted';
    await run(['import', 'demo.json'], { shops: [changed] });
    const created = (await run(['keys', 'create', '--shop', DEMO_SHOP, '--name', 'Till'])).join('\n');
    await run(['keys', 'list', '--shop', DEMO_SHOP]);
    await run(['keys', 'revoke', /apik_([^_\s]+)_/.exec(created)![1]!]);
    await run(['admin-users', 'create', '--shop', DEMO_SHOP, '--email', 'till@example.com']);
    await run(['admin-users', 'list', '--shop', DEMO_SHOP]);
    await run(['admin-users', 'remove', 'till@example.com']);
    await run(['addon', 'disable', '--shop', DEMO_SHOP]);
    await run(['addon', 'enable', '--shop', DEMO_SHOP]);
    await run(['reconcile', '--shop', DEMO_SHOP]);
    await run(['reconcile', '--shop', DEMO_SHOP, '--fix']);
    await run(['platform', 'show', '--shop', DEMO_SHOP]);
    await run(['demo', '--reset', '--yes']);
    for (const [name, count] of Object.entries(commands.statements)) expect(count, name).toBeGreaterThan(0);
    expect(commands.fannedOut).toEqual({});
  });
});
