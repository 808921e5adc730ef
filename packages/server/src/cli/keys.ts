import { type ParseArgsConfig, parseArgs } from 'node:util';
import { createApiKey, listKeys, revokeKey } from '../services/api-keys.js';
import { type StoreCommand, UsageError } from './command.js';

const USAGE = `usage:
  tare keys create --shop DOMAIN [--name NAME] [--expires-at ISO-8601]
  tare keys list [--shop DOMAIN]
  tare keys revoke KEY_ID`;

/** `tare keys create|list|revoke`: `create` prints only the key on stdout, once. */
export const keysCommand: StoreCommand = async (ctx, args) => {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = parse(rest, {
      shop: { type: 'string' },
      name: { type: 'string' },
      'expires-at': { type: 'string' },
    });
    if (!values.shop) throw new UsageError(USAGE);
    const expiresAt = values['expires-at'] === undefined ? undefined : new Date(String(values['expires-at']));
    if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new UsageError('--expires-at must be an ISO-8601 date');
    const key = await createApiKey(ctx.db, {
      shopDomain: String(values.shop),
      name: values.name as string | undefined,
      expiresAt,
    });
    ctx.io.out(key.token);
    return 0;
  }
  if (action === 'list') {
    const { values } = parse(rest, { shop: { type: 'string' } });
    const keys = await listKeys(ctx.db, values.shop as string | undefined);
    ctx.io.out(['KEY ID', 'SHOP', 'NAME', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'].join('\t'));
    for (const key of keys) {
      const at = (d: Date | null) => (d ? d.toISOString() : '-');
      ctx.io.out(
        [
          key.id,
          key.shopDomain,
          key.name ?? '-',
          at(key.createdAt),
          at(key.expiresAt),
          at(key.revokedAt),
          at(key.lastUsedAt),
        ].join('\t'),
      );
    }
    return 0;
  }
  if (action === 'revoke' && rest.length === 1 && rest[0]) {
    await revokeKey(ctx.db, rest[0]);
    ctx.changed();
    ctx.io.out(`revoked ${rest[0]}`);
    return 0;
  }
  throw new UsageError(USAGE);
};

function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}
