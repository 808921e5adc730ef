import { parseArgs } from 'node:util';
import { UsageError } from './command.js';

/**
 * The `--name VALUE` options, the `--flag` switches and the positionals of one command;
 * a mistake is one short line (`keys create: unknown option '--shp'`) before the usage text.
 */
export function parseCommandArgs<Name extends string, Flag extends string = never>(
  command: string,
  args: string[],
  names: readonly Name[],
  usage: string,
  flags: readonly Flag[] = [],
): { values: Partial<Record<Name, string>> & Partial<Record<Flag, boolean>>; positionals: string[] } {
  const options = Object.fromEntries([
    ...names.map((name) => [name, { type: 'string' as const }]),
    ...flags.map((flag) => [flag, { type: 'boolean' as const }]),
  ]);
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { values: values as Partial<Record<Name, string>> & Partial<Record<Flag, boolean>>, positionals };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const option = /'(-[^' ]+)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
      throw new UsageError(`${command}: unknown option '${option}'`, usage);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
      throw new UsageError(`${command}: ${option} needs a value`, usage);
    }
    throw new UsageError(`${command}: ${message}`, usage);
  }
}
