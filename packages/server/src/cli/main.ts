import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import packageJson from '../../package.json' with { type: 'json' };
import { loadConfig } from '../config.js';
import { type CommandIo, CommandError, describeFailure, type InputText, inputText, UsageError } from './command.js';
import { confirmOnTerminal } from './confirm.js';
import { runStoreCommand } from './run-command.js';
import { STORE_COMMANDS } from './store-commands.js';

const HELP = `tare — exact fractional inventory for whole-unit e-commerce platforms

usage:
  tare serve                         run the HTTP service (what npm start runs)
  tare migrate                       apply pending database migrations
  tare import FILE                   import shops, catalog, inventory and orders from a JSON file
  tare keys create --shop DOMAIN [--name NAME] [--expires-at ISO-8601]
  tare keys list [--shop DOMAIN] [--json]
                                     the shop's keys as a table (times in local time); --json for scripts
  tare keys revoke KEY_ID            KEY_ID as keys list shows it, or the whole apik_… key
  tare admin-users create --shop DOMAIN --email EMAIL
                                     a staff account of the admin (/admin); prints a one-time password
  tare admin-users list [--shop DOMAIN] [--json]
                                     the staff accounts as a table (times in local time); --json for scripts
  tare admin-users remove EMAIL      remove the account; its sessions end
  tare addon enable|disable --shop DOMAIN   switch the shop's order-editing add-on
  tare reconcile [--shop DOMAIN] [--fix] [--json]
                                     compare Tare's stock with the platform; --fix follows it
  tare platform connect --shop DOMAIN --store NAME.myshopify.com --access-token TOKEN --client-secret SECRET
                    [--api-version YYYY-MM] [--admin-api-url URL]
                                     connect a shop to its Shopify store (credentials sealed at rest)
  tare platform show [--shop DOMAIN] [--json]
                                     each shop's platform, connection state and sync backlog, secrets masked
  tare platform webhooks --shop DOMAIN --address URL
                                     subscribe the store's webhooks to Tare's POST /webhooks/shopify
  tare platform disconnect --shop DOMAIN     forget the shop's Shopify credentials (data kept)
  tare platform rotate-key           re-seal every shop's credentials with TARE_SECRETS_KEY
  tare demo                          a new demo-shop key; loads the demo shop only if it is not there yet
  tare demo --reset [--yes]          put the demo shop's data back as the demo ships it (asks first)
  tare shopify run-function cart-transform < input.json
                                     run the checkout function on its input JSON; prints its output JSON
  tare --version                     print the version
  tare COMMAND --help                that command's usage and options (also: tare help COMMAND)

environment: PORT, HOST, DATABASE_URL, TARE_DATA_DIR, REDIS_URL, LOG_LEVEL, LOG_FORMAT,
  TARE_SECRETS_KEY, TARE_SECRETS_PREVIOUS_KEYS (see README)`;

/**
 * The part of HELP about one command (`keys`) or subcommand (`keys list`): its usage lines with
 * their options and what they do. HELP stays the one place each command's usage is written.
 */
export function commandHelp(words: string[]): string {
  const entries: string[][] = [];
  for (const line of HELP.split('\n')) {
    if (line.startsWith('  tare ')) entries.push([line]);
    else if (line.startsWith('    ') && entries.length) entries.at(-1)!.push(line);
  }
  const matching = (count: number) =>
    entries.filter(([first]) => {
      const said = first!
        .trim()
        .split(/\s+/)
        .slice(1, count + 1);
      return said.length === count && said.every((word, i) => word.split('|').includes(words[i]!));
    });
  const found = (words.length > 1 && matching(2).length ? matching(2) : matching(1)).flat();
  if (found.length === 0) return HELP;
  return ['usage:', ...found, '', 'tare --help lists every command.'].join('\n');
}

const io: CommandIo = {
  out: (line: string) => console.log(line),
  err: (line: string) => console.error(line),
  // One line rewritten in place (carriage return, erase line): only a terminal shows that well.
  ...(process.stderr.isTTY ? { progress: (line: string) => process.stderr.write(`\r\x1b[2K${line}`) } : {}),
};

export async function main(argv: string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    io.out(args.length ? commandHelp(args) : HELP);
    return 0;
  }
  // `tare keys list --help`: before anything is read or opened, whatever else was typed.
  if (args.includes('--help') || args.includes('-h')) {
    io.out(commandHelp([name, ...args.filter((arg) => !arg.startsWith('-'))]));
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out(`tare ${packageJson.version}`);
    return 0;
  }
  try {
    if (name === 'shopify') {
      // No store and no settings: the function is pure, as on Shopify.
      const { runShopifyCommand } = await import('./shopify-function.js');
      return await runShopifyCommand(args, readStdin, io);
    }
    const config = loadConfig(process.env);
    if (name === 'serve') {
      // Loaded on demand: other commands need no HTTP stack, and start faster without it.
      const { serve } = await import('./serve.js');
      await serve(config);
      return -1; // keeps running until a signal
    }
    if (!STORE_COMMANDS[name]) throw new UsageError(`unknown command '${name}'`, HELP);
    if (name === 'import') tuneForOneBatch();
    const input = name === 'import' && args.length === 1 ? readInput(args[0]!) : undefined;
    const confirmed = await confirmOnTerminal(name, args, { input: process.stdin, output: process.stderr });
    if (!confirmed) {
      io.err(`${name}: not confirmed; nothing changed`);
      return 1;
    }
    return await runStoreCommand(config, name, confirmed, io, input);
  } catch (error) {
    const failure = describeFailure(error);
    if (failure) {
      for (const line of failure.lines) io.err(line);
      return failure.exitCode;
    }
    // A bug: still one `error:` line first, then where it happened, for the report.
    io.err(`error: ${(error as Error)?.message ?? String(error)}`);
    io.err((error as Error)?.stack?.split('\n').slice(1).join('\n') ?? '');
    return 1;
  }
}

/**
 * `tare import` is one short process whose heap is mostly garbage: the parsed file is live
 * throughout and each slice's rows only briefly, yet V8 lets the heap grow to about four times
 * what is live before collecting, and compiles PGlite's hot WebAssembly a second time with its
 * optimizing tier (~80 MB of code). Both are V8 heuristics, read when used, so this process can
 * change them before it reads the file and opens the store: 100,000 variants on PGlite peaked at
 * 525 MB before and under 400 MB now, in the same time (decision 65). Only this process: an
 * import a running server takes over runs with the server's defaults.
 */
function tuneForOneBatch(): void {
  v8.setFlagsFromString('--heap-growing-percent=10');
  v8.setFlagsFromString('--liftoff-only');
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const READ_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
};

function readInput(file: string): InputText {
  try {
    return inputText(readFileSync(file, 'utf8'));
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new CommandError(`cannot read ${file}: ${(code && READ_PROBLEMS[code]) ?? message}`);
  }
}
