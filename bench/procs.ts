import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Every child this run started, so they can be stopped on exit — also on failure. */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** stdout + stderr so far, for error messages. */
  output(): string;
}

/** Starts `node ARGS` (the node process itself, no npm/sh wrapper, so `pid` is the server's). */
export function spawnNode(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, args, {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (proc.pid === undefined) throw new Error(`could not start node ${args.join(' ')}`);
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let text = '';
  proc.stdout?.on('data', (chunk) => (text += chunk));
  proc.stderr?.on('data', (chunk) => (text += chunk));
  return { proc, pid: proc.pid, output: () => text };
}

/** Runs a child to completion; throws with its output when it fails. Returns stdout + stderr. */
export async function runNode(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawnNode(args, env);
  const [code] = await once(child.proc, 'exit');
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}:\n${child.output()}`);
  return child.output();
}

/** SIGTERM, then wait for the exit (SIGKILL after 10 s). */
export async function stop(child: Child): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = once(child.proc, 'exit');
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((proc) => stop({ proc, pid: proc.pid!, output: () => '' })));
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Polls `url` every 20 ms until it answers 200; throws if the child exits or 60 s pass. */
export async function waitFor200(url: string, child: Child): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`server exited (${child.proc.exitCode}):\n${child.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  throw new Error(`${url} did not answer 200 within 60 s:\n${child.output()}`);
}
