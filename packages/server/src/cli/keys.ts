import { parseKey } from '../domain/api-key.js';
import { createApiKey, listKeys, revokeKey } from '../services/api-keys.js';
import { parseCommandArgs } from './args.js';
import { type StoreCommand, UsageError } from './command.js';
import { formatTable, jsonTime, localTime } from './table.js';

const USAGE = `usage:
  tare keys create --shop DOMAIN [--name NAME] [--expires-at ISO-8601]
  tare keys list [--shop DOMAIN] [--json]
  tare keys revoke KEY_ID       (KEY_ID: what keys list shows, or the whole apik_… key)`;

/** `tare keys create|list|revoke`: `create` prints only the key on stdout, once. */
export const keysCommand: StoreCommand = async (ctx, args) => {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values, positionals } = parseCommandArgs('keys create', rest, ['shop', 'name', 'expires-at'], USAGE);
    noPositionals('keys create', positionals);
    if (!values.shop) throw new UsageError('keys create needs --shop DOMAIN', USAGE);
    const expiresAt = values['expires-at'] === undefined ? undefined : new Date(values['expires-at']);
    if (expiresAt && Number.isNaN(expiresAt.getTime())) {
      throw new UsageError('keys create: --expires-at must be a date, like 2027-06-30 or 2027-06-30T18:00:00Z', USAGE);
    }
    const key = await createApiKey(ctx.db, { shopDomain: values.shop, name: values.name, expiresAt });
    ctx.io.out(key.token);
    return 0;
  }
  if (action === 'list') {
    const { values, positionals } = parseCommandArgs('keys list', rest, ['shop'], USAGE, ['json']);
    noPositionals('keys list', positionals);
    const keys = await listKeys(ctx.db, values.shop);
    if (values.json) {
      const rows = keys.map((key) => ({
        keyId: key.id,
        shop: key.shopDomain,
        name: key.name,
        createdAt: jsonTime(key.createdAt),
        expiresAt: jsonTime(key.expiresAt),
        revokedAt: jsonTime(key.revokedAt),
        lastUsedAt: jsonTime(key.lastUsedAt),
      }));
      ctx.io.out(JSON.stringify(rows, null, 2));
      return 0;
    }
    const header = ['KEY ID', 'SHOP', 'NAME', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'];
    const rows = keys.map((key) => [
      key.id,
      key.shopDomain,
      key.name ?? '-',
      localTime(key.createdAt),
      localTime(key.expiresAt),
      localTime(key.revokedAt),
      localTime(key.lastUsedAt),
    ]);
    for (const line of formatTable(header, rows)) ctx.io.out(line);
    return 0;
  }
  if (action === 'revoke') {
    if (rest.length !== 1 || !rest[0]) throw new UsageError('keys revoke needs one KEY_ID', USAGE);
    const keyId = keyIdOf(rest[0]);
    const { alreadyRevokedAt } = await revokeKey(ctx.db, keyId);
    ctx.changed();
    ctx.io.out(alreadyRevokedAt ? `${keyId} was already revoked (${localTime(alreadyRevokedAt)})` : `revoked ${keyId}`);
    return 0;
  }
  if (action === undefined) throw new UsageError('keys needs a command: create, list or revoke', USAGE);
  throw new UsageError(`unknown keys command '${action}'`, USAGE);
};

/** The key id of `apik_<id>_<secret>` (or `<id>:<secret>`, or a bare `apik_<id>`); else the text itself. */
function keyIdOf(text: string): string {
  return parseKey(text)?.keyId ?? /^apik_([a-z2-7]{16})(_|$)/.exec(text.trim())?.[1] ?? text.trim();
}

function noPositionals(command: string, positionals: string[]): void {
  if (positionals.length) throw new UsageError(`${command}: unexpected argument '${positionals[0]}'`, USAGE);
}
