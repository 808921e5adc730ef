import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.js';
import { AppError } from '../errors.js';
import { UsageError } from './command.js';
import { runStoreCommand } from './run-command.js';
import { STORE_COMMANDS } from './store-commands.js';

const HELP = `tare — exact fractional inventory for whole-unit e-commerce platforms

usage:
  tare serve                         run the HTTP service (what npm start runs)
  tare migrate                       apply pending database migrations
  tare import FILE                   import shops, catalog, inventory and orders from a JSON file
  tare keys create --shop DOMAIN [--name NAME] [--expires-at ISO-8601]
  tare keys list [--shop DOMAIN]
  tare keys revoke KEY_ID
  tare addon enable|disable --shop DOMAIN   switch the shop's order-editing add-on
  tare demo                          load the demo shop and print a new demo key

environment: PORT, HOST, DATABASE_URL, TARE_DATA_DIR, REDIS_URL, LOG_LEVEL (see README)`;

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };

export async function main(argv: string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    io.out(HELP);
    return 0;
  }
  try {
    const config = loadConfig(process.env);
    if (name === 'serve') {
      // Loaded on demand: other commands need no HTTP stack, and start faster without it.
      const { serve } = await import('./serve.js');
      await serve(config);
      return -1; // keeps running until a signal
    }
    const command = STORE_COMMANDS[name];
    if (!command) throw new UsageError(`unknown command '${name}'\n\n${HELP}`);
    const input = name === 'import' && args.length === 1 ? readInput(args[0]!) : undefined;
    return await runStoreCommand(config, name, command, args, io, input);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof AppError || error instanceof InputError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

class InputError extends Error {}

function readInput(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
