import { afterEach, describe, expect, test, vi } from 'vitest';
import { commandHelp, main } from '../../src/cli/main.js';

/** Every command and subcommand `tare --help` lists, as a person would type it. */
const COMMANDS = [
  ['serve'],
  ['migrate'],
  ['import'],
  ['keys', 'create'],
  ['keys', 'list'],
  ['keys', 'revoke'],
  ['admin-users', 'create'],
  ['admin-users', 'list'],
  ['admin-users', 'remove'],
  ['addon', 'enable'],
  ['addon', 'disable'],
  ['reconcile'],
  ['platform', 'connect'],
  ['platform', 'show'],
  ['platform', 'webhooks'],
  ['platform', 'disconnect'],
  ['platform', 'rotate-key'],
  ['demo'],
  ['shopify', 'run-function'],
];

describe('tare --help on every command', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** What `tare …args` prints on stdout, and its exit code; no store is opened for help. */
  async function run(args: string[]): Promise<{ code: number; stdout: string }> {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // An invalid DATABASE_URL: help is answered before any setting is read or a store opened.
    vi.stubEnv('DATABASE_URL', 'not-a-url');
    const code = await main(args);
    vi.unstubAllEnvs();
    return { code, stdout: printed.join('\n') };
  }

  test.each(COMMANDS)('tare %s %s --help prints its usage line and options', async (...words) => {
    const { code, stdout } = await run([...words, '--help']);
    expect(code).toBe(0);
    const [title, ...lines] = stdout.split('\n');
    expect(title).toBe('usage:');
    expect(lines[0]).toMatch(new RegExp(`^  tare ${words[0]} `));
    expect(stdout).toContain(words.at(-1));
    expect(stdout).not.toContain('environment:'); // its own part, not the whole list
  });

  test('a command with subcommands lists them all; -h and tare help COMMAND say the same', async () => {
    const keys = await run(['keys', '--help']);
    for (const sub of ['create', 'list', 'revoke']) expect(keys.stdout).toContain(`tare keys ${sub}`);
    expect((await run(['keys', '-h'])).stdout).toBe(keys.stdout);
    expect((await run(['help', 'keys'])).stdout).toBe(keys.stdout);
    expect((await run(['keys', 'list', '--help'])).stdout).toContain('--json');
    expect((await run(['admin-users', 'list', '--help'])).stdout).toContain('--json');
  });

  test('an options line that continues below the usage line is part of it', () => {
    expect(commandHelp(['platform', 'connect'])).toContain('[--api-version YYYY-MM]');
  });
});
