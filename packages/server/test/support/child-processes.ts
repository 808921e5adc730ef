/**
 * Processes a test starts (`tare serve`, CLI commands, scripts) end whatever happens to the test:
 * a failure, a timeout, a cancelled run, or the test process itself being killed.
 *
 * - Each command runs under process-guard.mjs, detached: the guard leads a process group of its
 *   own that the command and everything it starts join, so one signal to the group ends them
 *   all; and the guard kills that group when the test process goes away, even by SIGKILL.
 * - Every group is in a registry until it is gone. The registry kills what is left, and runs the
 *   other teardowns registered with `onTeardown` (temporary stores), after each test file
 *   (`afterAll` of the setup file child-processes-setup.ts), when the process exits, and on
 *   SIGTERM, SIGINT and SIGHUP (vitest stops its workers with SIGTERM).
 * - `signal` (a test's `context.signal`, aborted when the test times out or the run is
 *   cancelled) kills a command at once.
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const GUARD = fileURLToPath(new URL('./process-guard.mjs', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface GroupProcess {
  /** The guard's pid, which is also the id of the command's process group. */
  readonly pid: number;
  /** The command's own pid, once it has started (rejects if it could not start). */
  readonly commandPid: Promise<number>;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves when the command has exited and its group has been killed. */
  readonly exited: Promise<Exit>;
  /** True until the command has exited. */
  readonly running: boolean;
  /**
   * SIGTERM, SIGINT or SIGHUP go to the command alone (so it can shut down cleanly); SIGKILL goes
   * to the whole group. Resolves once the command has exited.
   */
  kill(signal?: 'SIGTERM' | 'SIGINT' | 'SIGHUP' | 'SIGKILL'): Promise<Exit>;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Kills the group when aborted (pass a test's `context.signal`). */
  signal?: AbortSignal;
}

const groups = new Map<number, GroupProcess>();
const teardowns = new Set<() => void>();

/** Starts `file args…` in a process group of its own, registered until the whole group is gone. */
export function spawnGroup(file: string, args: string[], options: SpawnOptions = {}): GroupProcess {
  hookProcess();
  const guard = spawn(process.execPath, [GUARD, file, ...args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const pid = guard.pid;
  if (pid === undefined) throw new Error(`could not start ${file}`);
  const commandPid = new Promise<number>((resolve, reject) => {
    // The guard writes the pid once the command has started. The command may inherit the pipe,
    // so it closes when the command exits: the line is the answer, the close only a failure.
    let text = '';
    const channel = guard.stdio[3] as Readable;
    channel.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (/^\d+\n/.test(text)) resolve(Number.parseInt(text, 10));
    });
    channel.once('close', () => reject(new Error(`${file} did not start`)));
  });
  commandPid.catch(() => {}); // a caller that never asks is not told
  let running = true;
  const exited = new Promise<Exit>((resolve) => {
    guard.once('exit', (code, signal) => {
      running = false;
      killGroup(pid); // what the command left behind
      groups.delete(pid);
      options.signal?.removeEventListener('abort', abort);
      resolve({ code, signal });
    });
  });
  const abort = () => killGroup(pid);
  const group: GroupProcess = {
    pid,
    commandPid,
    stdout: guard.stdout!,
    stderr: guard.stderr!,
    exited,
    get running() {
      return running;
    },
    kill: (signal = 'SIGKILL') => {
      if (running) {
        if (signal === 'SIGKILL') killGroup(pid);
        else guard.kill(signal);
      }
      return exited;
    },
  };
  groups.set(pid, group);
  if (options.signal?.aborted) abort();
  else options.signal?.addEventListener('abort', abort, { once: true });
  return group;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when `timeoutMs` ran out and the group was killed. */
  timedOut: boolean;
}

/** Runs a command to its end in a group of its own; never rejects, the exit tells. */
export async function runGroup(
  file: string,
  args: string[],
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<RunResult> {
  const child = spawnGroup(file, args, options);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let timedOut = false;
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          void child.kill('SIGKILL');
        }, options.timeoutMs);
  const { code, signal } = await child.exited;
  clearTimeout(timer);
  // The streams end once every process holding them is gone, which the group's kill ensured.
  await Promise.all([streamEnd(child.stdout), streamEnd(child.stderr)]);
  return { code, signal, stdout, stderr, timedOut };
}

/** Process groups started here that are still registered (their command may have exited). */
export function liveGroups(): number[] {
  return [...groups.keys()];
}

/** Whether any process of the group is still alive (zombies included). */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Registers a synchronous teardown run with the registry's (see above); returns its removal. */
export function onTeardown(teardown: () => void): () => void {
  hookProcess();
  teardowns.add(teardown);
  return () => teardowns.delete(teardown);
}

/** Kills every registered group and runs every registered teardown; synchronous, never throws. */
export function teardownAll(): void {
  for (const pid of groups.keys()) killGroup(pid);
  for (const teardown of [...teardowns]) {
    teardowns.delete(teardown);
    try {
      teardown();
    } catch {
      // a teardown must not keep the next ones from running
    }
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone
  }
}

function streamEnd(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', resolve));
}

let hooked = false;

function hookProcess(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', teardownAll);
  for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    const onSignal = () => {
      teardownAll();
      process.removeListener(name, onSignal);
      // Let the signal do what it would have done without us.
      if (process.listenerCount(name) === 0) process.kill(process.pid, name);
    };
    process.on(name, onSignal);
  }
}
