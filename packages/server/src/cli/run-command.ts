import type { Config } from '../config.js';
import { createLocalGateway } from '../platform/local/local-gateway.js';
import { migrate } from '../store/migrate.js';
import { openDb } from '../store/open-db.js';
import type { CommandIo, StoreCommand } from './command.js';
import { awaitServerHandle } from './server-handle.js';

/**
 * Runs a store command: on PostgreSQL, or on a PGlite data dir no server holds, it opens the
 * store itself; when a server holds the PGlite data dir, the server runs it.
 */
export async function runStoreCommand(
  config: Config,
  name: string,
  command: StoreCommand,
  args: string[],
  io: CommandIo,
  input?: string,
): Promise<number> {
  const handle = config.databaseUrl ? undefined : await awaitServerHandle(config.dataDir);
  if (handle) return forward(handle, name, args, io, input);
  const db = await openDb(config);
  try {
    const applied = await migrate(db);
    if (applied.length) io.err(`applied migrations: ${applied.join(', ')}`);
    return await command({ db, gateway: createLocalGateway(), io, input, changed: () => {} }, args);
  } finally {
    await db.close();
  }
}

async function forward(
  handle: { url: string; token: string },
  name: string,
  args: string[],
  io: CommandIo,
  input: string | undefined,
): Promise<number> {
  const response = await fetch(`${handle.url}/internal/cli`, {
    method: 'POST',
    headers: { authorization: `Bearer ${handle.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ command: name, args, input }),
  });
  const result = (await response.json()) as { exitCode?: number; stdout?: string[]; stderr?: string[] };
  for (const line of result.stdout ?? []) io.out(line);
  for (const line of result.stderr ?? []) io.err(line);
  return result.exitCode ?? 1;
}
