import { loadConfig } from '../config.js';
import { createAdminUser, listAdminUsersOf, removeAdminUser } from '../services/admin-users.js';
import type { AdminUser } from '../store/repositories/admin-users.js';
import { parseCommandArgs } from './args.js';
import { type StoreCommand, UsageError } from './command.js';
import { formatTable, jsonTime, localTime } from './table.js';

const USAGE = `usage:
  tare admin-users create --shop DOMAIN --email EMAIL
  tare admin-users list [--shop DOMAIN] [--json]
  tare admin-users remove EMAIL`;

/**
 * `tare admin-users create|list|remove`: staff accounts of the admin (PRODUCT.md §17). `create`
 * prints the one-time password on stdout, once; it must be changed at the first sign-in.
 */
export const adminUsersCommand: StoreCommand = async (ctx, args) => {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values, positionals } = parseCommandArgs('admin-users create', rest, ['shop', 'email'], USAGE);
    noPositionals('admin-users create', positionals);
    if (!values.shop) throw new UsageError('admin-users create needs --shop DOMAIN', USAGE);
    if (!values.email) throw new UsageError('admin-users create needs --email EMAIL', USAGE);
    const user = await createAdminUser(ctx.db, { shopDomain: values.shop, email: values.email });
    // Only the password on stdout, like `keys create` prints only the key: easy to pipe. Where to
    // use it goes to stderr, so a person reading the terminal sees both.
    ctx.io.out(user.oneTimePassword);
    ctx.io.err(
      `${user.email} signs in at ${adminSignInUrl(process.env)} with this one-time password, then chooses their own.`,
    );
    return 0;
  }
  if (action === 'list') {
    const { values, positionals } = parseCommandArgs('admin-users list', rest, ['shop'], USAGE, ['json']);
    noPositionals('admin-users list', positionals);
    const users = await listAdminUsersOf(ctx.db, values.shop);
    const password = (user: AdminUser) => (user.mustChangePassword ? 'one-time' : 'set');
    if (values.json) {
      const rows = users.map((user) => ({
        email: user.email,
        shop: user.shopDomain,
        createdAt: jsonTime(user.createdAt),
        lastSignInAt: jsonTime(user.lastSignInAt),
        password: password(user),
      }));
      ctx.io.out(JSON.stringify(rows, null, 2));
      return 0;
    }
    const header = ['EMAIL', 'SHOP', 'CREATED', 'LAST SIGN-IN', 'PASSWORD'];
    const rows = users.map((user) => [
      user.email,
      user.shopDomain,
      localTime(user.createdAt),
      localTime(user.lastSignInAt),
      password(user),
    ]);
    for (const line of formatTable(header, rows)) ctx.io.out(line);
    return 0;
  }
  if (action === 'remove') {
    if (rest.length !== 1 || !rest[0]) throw new UsageError('admin-users remove needs one EMAIL', USAGE);
    await removeAdminUser(ctx.db, rest[0]);
    ctx.io.out(`removed ${rest[0].trim().toLowerCase()}; their sessions have ended`);
    return 0;
  }
  if (action === undefined) throw new UsageError('admin-users needs a command: create, list or remove', USAGE);
  throw new UsageError(`unknown admin-users command '${action}'`, USAGE);
};

/**
 * Where staff sign in: the admin of the server this configuration starts (HOST and PORT, as
 * `tare serve` listens; an address that listens on every interface is reached as localhost).
 */
export function adminSignInUrl(env: NodeJS.ProcessEnv): string {
  const { host, port } = loadConfig(env);
  const reachable = ['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${port}/admin/login`;
}

function noPositionals(command: string, positionals: string[]): void {
  if (positionals.length) throw new UsageError(`${command}: unexpected argument '${positionals[0]}'`, USAGE);
}
