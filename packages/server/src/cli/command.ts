import type { PlatformGateway } from '../platform/gateway.js';
import type { Db } from '../store/db.js';

/** Where a command writes; captured when a running server executes it for the CLI. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CommandContext {
  db: Db;
  gateway: PlatformGateway;
  io: CommandIo;
  /** Text of a file the user named (read by the CLI process, which has the user's cwd). */
  input?: string;
  /** Called after a command changed data, so a running server drops its caches at once. */
  changed(): void;
}

export class UsageError extends Error {}

/** A command that needs the store. Returns the process exit code. */
export type StoreCommand = (ctx: CommandContext, args: string[]) => Promise<number>;
