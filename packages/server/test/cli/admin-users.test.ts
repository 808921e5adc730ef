import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSignInUrl, adminUsersCommand } from '../../src/cli/admin-users.js';
import type { CommandContext } from '../../src/cli/command.js';
import { UsageError } from '../../src/cli/command.js';
import { verifyPassword } from '../../src/domain/password.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createKeyring } from '../../src/secrets/keyring.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { seedShop } from '../support/harness.js';

describe.each(testDrivers({ citus: true }))('tare admin-users on $name', ({ create }) => {
  let db: Db;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db.close();
  });

  function context() {
    const out: string[] = [];
    const err: string[] = [];
    const ctx: CommandContext = {
      db,
      gateway: createLocalGateway(),
      keyring: createKeyring({}),
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      changed: () => {},
    };
    return { ctx, out, err };
  }

  const storedHash = async (email: string) =>
    (await db.query<{ password_hash: string }>('SELECT password_hash FROM admin_users WHERE email = $1', [email]))
      .rows[0]?.password_hash;

  it('when a user is created, then only the one-time password is printed on stdout and only its scrypt hash is kept', async () => {
    const { domain } = await seedShop(db);
    const run = context();
    expect(await adminUsersCommand(run.ctx, ['create', '--shop', domain, '--email', ' Ana@Example.com'])).toBe(0);
    expect(run.out).toHaveLength(1);
    const password = run.out[0]!;
    expect(password).toMatch(/^[a-zA-Z2-9]{5}(-[a-zA-Z2-9]{5}){3}$/);
    // Where to use it, on stderr: stdout stays the password alone, for a pipe.
    expect(run.err).toEqual([
      `ana@example.com signs in at ${adminSignInUrl(process.env)} with this one-time password, then chooses their own.`,
    ]);
    const hash = await storedHash('ana@example.com');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain(password);
    expect(await verifyPassword(password, hash)).toBe(true);
    expect(await verifyPassword(`${password}x`, hash)).toBe(false);

    const list = context();
    expect(await adminUsersCommand(list.ctx, ['list', '--shop', domain])).toBe(0);
    expect(list.out[0]!.split(/ {2,}/)).toEqual(['EMAIL', 'SHOP', 'CREATED', 'LAST SIGN-IN', 'PASSWORD']);
    expect(list.out[1]!.split(/ {2,}/)).toEqual([
      'ana@example.com',
      domain,
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      '-',
      'one-time',
    ]);
    const json = context();
    expect(await adminUsersCommand(json.ctx, ['list', '--shop', domain, '--json'])).toBe(0);
    expect(JSON.parse(json.out.join('\n'))).toEqual([
      {
        email: 'ana@example.com',
        shop: domain,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        lastSignInAt: null,
        password: 'one-time',
      },
    ]);

    // The same address, however it is written, is one account across every shop.
    const other = await seedShop(db);
    await expect(
      adminUsersCommand(context().ctx, ['create', '--shop', other.domain, '--email', 'ANA@example.com']),
    ).rejects.toThrow("An admin user 'ana@example.com' exists already.");
  });

  it('when a user is removed, then the account and its sessions are gone', async () => {
    const { domain } = await seedShop(db);
    await adminUsersCommand(context().ctx, ['create', '--shop', domain, '--email', 'bo@example.com']);
    const { rows } = await db.query<{ id: string }>('SELECT id FROM admin_users WHERE email = $1', ['bo@example.com']);
    await db.query(
      `INSERT INTO admin_sessions (token_sha256, user_id, expires_at) VALUES ('\\x01', $1, now() + interval '1 hour')`,
      [rows[0]!.id],
    );
    const run = context();
    expect(await adminUsersCommand(run.ctx, ['remove', 'Bo@Example.com'])).toBe(0);
    expect(run.out).toEqual(['removed bo@example.com; their sessions have ended']);
    expect((await db.query('SELECT 1 FROM admin_sessions WHERE user_id = $1', [rows[0]!.id])).rows).toEqual([]);
    await expect(adminUsersCommand(context().ctx, ['remove', 'bo@example.com'])).rejects.toThrow(
      "No admin user 'bo@example.com'.",
    );
  });

  it('when the email or shop is wrong, then nothing is created and the problem is named', async () => {
    const { domain } = await seedShop(db);
    await expect(
      adminUsersCommand(context().ctx, ['create', '--shop', domain, '--email', 'not an email']),
    ).rejects.toThrow('The request is invalid: /email must be an email address.');
    await expect(
      adminUsersCommand(context().ctx, ['create', '--shop', 'nope.example', '--email', 'x@example.com']),
    ).rejects.toThrow("No shop 'nope.example'");
    expect((await db.query('SELECT 1 FROM admin_users WHERE email = $1', ['x@example.com'])).rows).toEqual([]);
  });

  it('the sign-in address is the admin of the server HOST and PORT start', () => {
    expect(adminSignInUrl({ PORT: '4100', HOST: '0.0.0.0' })).toBe('http://localhost:4100/admin/login');
    expect(adminSignInUrl({ HOST: 'tare.internal' })).toBe('http://tare.internal:3000/admin/login');
    expect(adminSignInUrl({ HOST: '::1', PORT: '80' })).toBe('http://[::1]:80/admin/login');
  });

  it.each([[[]], [['create', '--shop', 'a.example']], [['create', '--email', 'a@b.c']], [['remove']], [['drop']]])(
    'when the arguments are %j, then it is a usage error',
    async (args) => {
      await expect(adminUsersCommand(context().ctx, args)).rejects.toBeInstanceOf(UsageError);
    },
  );
});
