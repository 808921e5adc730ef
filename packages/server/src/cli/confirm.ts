import { once } from 'node:events';
import { createInterface } from 'node:readline/promises';
import { demoResetWarning } from './demo-catalog.js';

/** What a command about to overwrite data says before asking; undefined when there is nothing to ask. */
const WARNINGS: Record<string, (args: string[]) => string[] | undefined> = {
  demo: (args) => (args.includes('--reset') && !args.includes('--yes') ? demoResetWarning() : undefined),
};

export interface Terminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

/**
 * Asks before a command that overwrites data, when a person is at a terminal to answer: says what
 * it overwrites, then `Continue? [y/N]`. A yes is passed on as `--yes`, the only thing such a
 * command accepts, so it also reaches a server that runs the command for this CLI. Without a
 * terminal nothing is asked and the command refuses (exit 2) unless given `--yes`.
 *
 * @returns the arguments to run the command with, or undefined when the answer was not yes.
 */
export async function confirmOnTerminal(
  name: string,
  args: string[],
  terminal: Terminal,
): Promise<string[] | undefined> {
  const warning = WARNINGS[name]?.(args);
  if (!warning || !terminal.input.isTTY) return args;
  terminal.output.write(`${warning.join('\n')}\n`);
  const prompt = createInterface({ input: terminal.input, output: terminal.output });
  try {
    // End of input (Ctrl-D) is a no.
    const answer = await Promise.race([prompt.question('Continue? [y/N] '), once(prompt, 'close').then(() => '')]);
    return /^y(es)?$/i.test(answer.trim()) ? [...args, '--yes'] : undefined;
  } finally {
    prompt.close();
  }
}
