import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandContext, describeFailure, inputText } from '../../src/cli/command.js';
import { STORE_COMMANDS } from '../../src/cli/store-commands.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop, shopFixture } from '../support/harness.js';
import { machineTalkIn } from '../support/machine-talk.js';

/**
 * Every CLI command a merchant runs, with bad input: what it prints on stderr (its own lines and
 * the `error:` line main prints for a failure, describeFailure) is in words, never a JSON
 * pointer, a pattern or a validator keyword (issue 25).
 */
describe.each(testDrivers())('CLI messages in words on $name', ({ create }) => {
  let db: Db;
  let domain: string;
  beforeAll(async () => {
    db = await create();
    ({ domain } = await seedShop(db));
  });
  afterAll(async () => {
    await db.close();
  });

  /** What `tare NAME …args` prints on stderr, as main prints it. */
  async function stderrOf(name: string, args: string[], file?: unknown): Promise<string[]> {
    const err: string[] = [];
    const ctx: CommandContext = {
      db,
      gateway: createLocalGateway(),
      keyring: createKeyring({}),
      io: { out: () => {}, err: (line) => err.push(line) },
      input: file === undefined ? undefined : inputText(JSON.stringify(file)),
      changed: () => {},
    };
    try {
      const command = await STORE_COMMANDS[name]!();
      expect(await command(ctx, args), `tare ${name} ${args.join(' ')} succeeded`).not.toBe(0);
    } catch (error) {
      const failure = describeFailure(error);
      if (!failure) throw error;
      err.push(...failure.lines);
    }
    return err;
  }

  it('when an import file holds mistakes, then each is named by its place in words', async () => {
    const shop = shopFixture({ domain: 'Bad Domain', currency: 'eur' });
    const product = shop.products![0]!;
    product.id = 'abc';
    const variant = product.variants[0]! as Record<string, unknown>;
    variant.price = '4,20';
    variant.colour = 'red';
    (variant.unitMeasurement as { value: number }).value = -1;
    delete (variant as { title?: string }).title;
    const lines = await stderrOf('import', ['shop.json'], { shops: [shop] });
    expect(lines[0]).toBe('error: shop.json was not imported; nothing was written. Fix these entries:');
    expect(lines.slice(1)).toEqual(
      expect.arrayContaining([
        '  Shop 1, domain: must be a domain name in small letters, like shop.example.com',
        '  Shop 1, currency: must be a three-letter currency code in capitals, like EUR',
        '  Shop 1, product 1, id: must be a number of 1 to 20 digits, like 5001',
        '  Shop 1, product 1, variant 1, price: must be an amount like 4.20: digits, with a dot before at most 6 decimals',
        '  Shop 1, product 1, variant 1, colour: is not a field Tare knows: check its spelling, or remove it',
        '  Shop 1, product 1, variant 1, title: is required',
      ]),
    );
    expect(lines.flatMap(machineTalkIn)).toEqual([]);
  });

  it.each([
    ['keys', ['create', '--shop', 'DOMAIN', '--name', ' ']],
    ['keys', ['create', '--shop', 'DOMAIN', '--name', 'till\u0001']],
    ['keys', ['create', '--shop', 'DOMAIN', '--expires-at', 'next week']],
    ['keys', ['create', '--shop', 'no-such-shop.example']],
    ['keys', ['revoke', 'apik_aaaaaaaaaaaaaaaa']],
    ['admin-users', ['create', '--shop', 'DOMAIN', '--email', 'not an email']],
    ['admin-users', ['remove', 'nobody@example.com']],
    ['addon', ['enable', '--shop', 'no-such-shop.example']],
    ['reconcile', ['--shop', 'no-such-shop.example']],
    [
      'platform',
      ['connect', '--shop', 'DOMAIN', '--store', 'not a store', '--access-token', 'x', '--client-secret', 'y'],
    ],
    ['platform', ['show', '--shop', 'no-such-shop.example']],
    ['demo', ['one', 'two']],
  ])('tare %s %j says what is wrong in words', async (name, args) => {
    const lines = await stderrOf(
      name,
      args.map((arg) => (arg === 'DOMAIN' ? domain : arg)),
    );
    expect(lines.length, 'nothing was said').toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^error: \S/);
    expect(lines.flatMap(machineTalkIn)).toEqual([]);
  });
});
