import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CommandError } from './command.js';

/**
 * PGlite is one process's database: a second process opening the same data dir would corrupt
 * it. A running server therefore leaves a handle in the data dir, and CLI commands hand their
 * work to that server instead of opening the store themselves.
 */
export interface ServerHandle {
  pid: number;
  /** Null while the server is starting: it owns the data dir but does not answer yet. */
  url: string | null;
  token: string;
}

const handlePath = (dataDir: string) => path.join(dataDir, 'server.json');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A server killed with SIGKILL whose parent has not reaped it yet (in a container whose init
 * does not reap orphans, it may stay so) still answers signal 0, but it is gone: on Linux its
 * state in /proc is `Z`.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (macOS): signal 0 is the answer
  }
}

/** The handle of a live server on this data dir, if any (a stale one is ignored). */
export function readServerHandle(dataDir: string): ServerHandle | undefined {
  try {
    const handle = JSON.parse(readFileSync(handlePath(dataDir), 'utf8')) as ServerHandle;
    return handle.pid !== process.pid && isAlive(handle.pid) ? handle : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The handle of a live server, waiting while it starts (it claims the data dir before opening
 * it, so a command never opens the store beside a starting server).
 */
export async function awaitServerHandle(
  dataDir: string,
  timeoutMs = 60_000,
): Promise<(ServerHandle & { url: string }) | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const handle = readServerHandle(dataDir);
    if (!handle) return undefined;
    if (handle.url) return { ...handle, url: handle.url };
    if (Date.now() > deadline) {
      throw new CommandError(`the Tare server (pid ${handle.pid}) that holds ${dataDir} did not finish starting`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function newHandleToken(): string {
  return randomBytes(32).toString('base64url');
}

export function writeServerHandle(dataDir: string, handle: ServerHandle): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(handlePath(dataDir), JSON.stringify(handle), { mode: 0o600 });
}

export function removeServerHandle(dataDir: string): void {
  rmSync(handlePath(dataDir), { force: true });
}
