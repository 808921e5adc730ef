import { createAdminUser, listAdminUsersOf, removeAdminUser } from '../services/admin-users.js';
import { parseCommandArgs } from './args.js';
import { type StoreCommand, UsageError } from './command.js';

const USAGE = `usage:
  tare admin-users create --shop DOMAIN --email EMAIL
  tare admin-users list [--shop DOMAIN]
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
    // Only the password, like `keys create` prints only the key: easy to pipe, nothing to strip.
    ctx.io.out(user.oneTimePassword);
    return 0;
  }
  if (action === 'list') {
    const { values, positionals } = parseCommandArgs('admin-users list', rest, ['shop'], USAGE);
    noPositionals('admin-users list', positionals);
    const users = await listAdminUsersOf(ctx.db, values.shop);
    ctx.io.out(['EMAIL', 'SHOP', 'CREATED', 'LAST SIGN-IN', 'PASSWORD'].join('\t'));
    for (const user of users) {
      const at = (d: Date | null) => (d ? d.toISOString() : '-');
      const password = user.mustChangePassword ? 'one-time' : 'set';
      ctx.io.out([user.email, user.shopDomain, at(user.createdAt), at(user.lastSignInAt), password].join('\t'));
    }
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

function noPositionals(command: string, positionals: string[]): void {
  if (positionals.length) throw new UsageError(`${command}: unexpected argument '${positionals[0]}'`, USAGE);
}
