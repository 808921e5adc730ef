import type { Config } from '../config.js';
import { keyringFor } from '../secrets/keyring.js';
import type { Db } from '../store/db.js';
import { type CommandIo, CommandError, type InputText } from './command.js';
import { openStore } from './open-store.js';
import { awaitServerHandle } from './server-handle.js';
import { STORE_COMMANDS } from './store-commands.js';

/**
 * Runs a store command: on PostgreSQL, or on a PGlite data dir no server holds, it opens the
 * store itself; when a server holds the PGlite data dir, the server runs it.
 */
export async function runStoreCommand(
  config: Config,
  name: string,
  args: string[],
  io: CommandIo,
  input?: InputText,
): Promise<number> {
  const handle = config.databaseUrl ? undefined : await awaitServerHandle(config.dataDir);
  if (handle) return forward(handle, name, args, io, input);
  const command = await STORE_COMMANDS[name]!();
  const { createPlatforms } = await import('../platform/platforms.js');
  const db = lazyStore(config, io);
  const keyring = keyringFor(config, db.driver);
  try {
    const { gateway } = createPlatforms(db, keyring);
    return await command({ db, gateway, keyring, io, input, changed: () => {} }, args);
  } finally {
    await db.close();
  }
}

/**
 * The store, opened and migrated on its first use: a command that stops at its arguments or at
 * an invalid file answers without waiting for the store.
 */
function lazyStore(config: Config, io: CommandIo): Db {
  let opening: Promise<Db> | undefined;
  const open = () =>
    (opening ??= (async () => {
      const db = await openStore(config, 'command', (message) => io.err(`warning: ${message}`));
      const { migrate } = await import('../store/migrate.js');
      const applied = await migrate(db);
      if (applied.length) io.err(`applied migrations: ${applied.join(', ')}`);
      return db;
    })());
  return {
    driver: config.databaseUrl ? 'postgres' : 'pglite',
    query: async (sql, params) => (await open()).query(sql, params),
    transaction: async (fn, options) => (await open()).transaction(fn, options),
    listen: async (channel, onPayload) => (await open()).listen(channel, onPayload),
    async close() {
      const db = await opening?.catch(() => undefined);
      await db?.close();
    },
  };
}

async function forward(
  handle: { pid: number; url: string; token: string },
  name: string,
  args: string[],
  io: CommandIo,
  input: InputText | undefined,
): Promise<number> {
  let result: { exitCode?: number; stdout?: string[]; stderr?: string[] };
  try {
    const response = await fetch(`${handle.url}/internal/cli`, {
      method: 'POST',
      headers: { authorization: `Bearer ${handle.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ command: name, args, input: input?.take() }),
    });
    result = (await response.json()) as typeof result;
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new CommandError(
      `the Tare server (pid ${handle.pid}) that holds this data dir does not answer at ${handle.url} (${reason})`,
    );
  }
  for (const line of result.stdout ?? []) io.out(line);
  for (const line of result.stderr ?? []) io.err(line);
  return result.exitCode ?? 1;
}
