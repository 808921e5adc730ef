import { AppError } from '../errors.js';
import { CATALOG_CHANGED } from '../services/change-channels.js';
import { parseCommandArgs } from './args.js';
import { type StoreCommand, UsageError } from './command.js';

const USAGE = 'usage: tare addon enable|disable --shop DOMAIN';

/** `tare addon enable|disable --shop D`: switches the shop's order-editing add-on. */
export const addonCommand: StoreCommand = async (ctx, args) => {
  const [action, ...rest] = args;
  if (action !== 'enable' && action !== 'disable') {
    throw new UsageError(action ? `unknown addon command '${action}'` : 'addon needs enable or disable', USAGE);
  }
  const { values, positionals } = parseCommandArgs(`addon ${action}`, rest, ['shop'], USAGE);
  if (positionals.length) throw new UsageError(`addon ${action}: unexpected argument '${positionals[0]}'`, USAGE);
  const domain = values.shop;
  if (!domain) throw new UsageError(`addon ${action} needs --shop DOMAIN`, USAGE);
  const active = action === 'enable';
  const changed = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      'UPDATE shops SET addon_active = $2, updated_at = now() WHERE domain = $1 RETURNING id',
      [domain, active],
    );
    if (rows[0]) await tx.query('SELECT pg_notify($1, $2)', [CATALOG_CHANGED, rows[0].id]);
    return rows.length > 0;
  });
  if (!changed) throw new AppError('not_found', `No shop '${domain}'.`);
  ctx.changed();
  ctx.io.out(`order-editing add-on ${active ? 'enabled' : 'disabled'} for ${domain}`);
  return 0;
};
