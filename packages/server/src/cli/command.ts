import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';
import { errorInWords } from '../messages/issue-words.js';
import type { PlatformGateway } from '../platform/gateway.js';
import type { Keyring } from '../secrets/keyring.js';
import type { Db } from '../store/db.js';

/** Where a command writes; captured when a running server executes it for the CLI. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
  /**
   * Shows how a long command is doing, replacing the last such line; '' clears it. Present only
   * when stderr is a terminal (nothing is added to piped or captured output).
   */
  progress?(line: string): void;
}

export interface CommandContext {
  db: Db;
  gateway: PlatformGateway;
  /** The keys that seal and open platform credentials (`tare platform`, an import that connects a shop). */
  keyring: Keyring;
  io: CommandIo;
  /** Text of a file the user named (read by the CLI process, which has the user's cwd). */
  input?: InputText;
  /** Called after a command changed data, so a running server drops its caches at once. */
  changed(): void;
}

/**
 * A file's text, handed over once: whoever takes it holds the only reference, so a large import
 * file can be collected once it is parsed rather than live for the whole import.
 */
export interface InputText {
  take(): string;
}

export function inputText(text: string): InputText {
  let held: string | undefined = text;
  return {
    take() {
      if (held === undefined) throw new Error('the input was already taken');
      const taken = held;
      held = undefined;
      return taken;
    },
  };
}

/** Wrong arguments: `error: <message>`, then the usage text; exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** A failure the user can act on (port taken, store unreachable, file unreadable): exit code 1. */
export class CommandError extends Error {}

/** A command that needs the store. Returns the process exit code. */
export type StoreCommand = (ctx: CommandContext, args: string[]) => Promise<number>;

/**
 * What the user sees of a failure: every line of it starts with `error:` (the usage text
 * follows a usage error). Undefined for an unexpected error, a bug, which keeps its stack.
 */
export function describeFailure(error: unknown): { exitCode: number; lines: string[] } | undefined {
  if (error instanceof UsageError) return { exitCode: 2, lines: [`error: ${error.message}`, '', error.usage] };
  if (error instanceof CommandError || error instanceof ConfigError) {
    return { exitCode: 1, lines: [`error: ${error.message}`] };
  }
  // A service's refusal in words: `Email must be an email address, …`, never its JSON pointer.
  if (error instanceof AppError) return { exitCode: 1, lines: [`error: ${errorInWords(error)}`] };
  return undefined;
}
