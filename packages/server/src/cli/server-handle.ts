import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite is one process's database: a second process opening the same data dir would corrupt
 * it. A running server therefore leaves a handle in the data dir, and CLI commands hand their
 * work to that server instead of opening the store themselves.
 */
export interface ServerHandle {
  pid: number;
  url: string;
  token: string;
}

const handlePath = (dataDir: string) => path.join(dataDir, 'server.json');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
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
