import { setFlagsFromString } from 'node:v8';
import type { Config } from '../config.js';
import type { Db } from '../store/db.js';
import { openDb } from '../store/open-db.js';
import { CommandError } from './command.js';

/**
 * Opens the configured store for `tare serve` or for one CLI command. A store that cannot be
 * opened (PostgreSQL down, data dir not writable) is one `error:` line, not a stack trace.
 * `warn` hears what an operator should know (a new PGlite store that had to run initdb).
 */
export async function openStore(
  config: Config,
  use: 'serve' | 'command',
  warn: (message: string) => void,
): Promise<Db> {
  if (use === 'command' && !config.databaseUrl) {
    // A command lives a second or two: V8's optimising tier would spend more CPU compiling
    // PGlite's 9 MB of WebAssembly than the faster code saves. Measured on the bundle: opening
    // a store took 1.4 s of CPU, 0.6 s with baseline code only, and a 1,800-variant import
    // 16 s against 11 s. The server, which runs for days, keeps the optimising tier.
    setFlagsFromString('--liftoff-only');
  }
  try {
    return await openDb(config, warn);
  } catch (error) {
    const message = (error as Error).message;
    if (config.databaseUrl) throw new CommandError(`${message} (DATABASE_URL)`);
    throw new CommandError(`cannot open the store in ${config.dataDir} (TARE_DATA_DIR): ${message}`);
  }
}
