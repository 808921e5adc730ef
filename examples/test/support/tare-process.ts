/**
 * Tare as a new user runs it: `tare serve` as a child process on its own store, the demo key it
 * prints on first start, CLI commands (handed to the server on PGlite), and restarts on the same
 * port so that a client keeps its base URL across them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../../packages/server/src/store/db.js';
import { openDb } from '../../../packages/server/src/store/open-db.js';
import { createPostgresDatabase } from '../../../packages/server/test/support/databases.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/server/bin/tare.js');
const DEMO_KEY = /^ {2}(apik_[a-z2-7]{16}_[0-9A-Za-z]{32,})$/m;

export type StoreKind = 'pglite' | 'postgres';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set, as in the server's suites. */
export function storeKinds(): StoreKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TareProcess {
  /** `http://127.0.0.1:<port>`; the same across restarts. */
  url: string;
  /** The demo shop's key printed on the first start. */
  apiKey: string;
  /** `TARE_DATA_DIR` or `DATABASE_URL` of this store, for `tare` commands run in a shell. */
  storeEnv: Record<string, string>;
  /** Stops the server: SIGTERM finishes in-flight requests first, SIGKILL does not. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again on the same store and port; resolves once it listens. */
  start(): Promise<void>;
  /** Opens the server's store in this process to inspect it; on PGlite only while the server is stopped. */
  openStore(): Promise<Db>;
  /** Runs `tare <args>` against the same store. */
  cli(args: string[]): Promise<Run>;
  /** Runs `node --import tsx examples/<script> <args>` against this server, as an integrator would. */
  example(script: string, args: string[]): Promise<Run>;
  /** Stops the server and deletes its store. */
  dispose(): Promise<void>;
}

export async function startTare(kind: StoreKind = 'pglite'): Promise<TareProcess> {
  const port = await freePort();
  const store = await createStore(kind);
  const env = userEnv({ ...store.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let firstOutput = '';

  const start = async () => {
    const proc = spawn(process.execPath, [BIN, 'serve'], { cwd: REPO_ROOT, env });
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let stdout = '';
    let stderr = '';
    proc.stderr!.on('data', (chunk) => (stderr += chunk));
    await new Promise<void>((resolve, reject) => {
      proc.stdout!.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('Tare is listening on')) resolve();
      });
      proc.once('exit', (code) => reject(new Error(`tare serve exited (${code}) before listening:\n${stderr}`)));
    });
    firstOutput ||= stdout;
  };

  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };

  await start();
  const key = DEMO_KEY.exec(firstOutput)?.[1];
  if (!key) throw new Error(`no demo key in the first start's output:\n${firstOutput}`);

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: key,
    storeEnv: { ...store.env },
    stop,
    start,
    openStore: () => openDb({ databaseUrl: store.env.DATABASE_URL, dataDir: store.env.TARE_DATA_DIR }),
    cli: (args) => run([BIN, ...args], env),
    example: (script, args) =>
      run(['--import', 'tsx', join('examples', script), ...args], {
        ...process.env,
        TARE_URL: `http://127.0.0.1:${port}`,
        TARE_API_KEY: key,
      }),
    dispose: async () => {
      await stop('SIGKILL');
      await store.dispose();
    },
  };
}

/** `node <args>` from the repository root; never rejects, the exit code tells. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: REPO_ROOT, env }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

async function createStore(kind: StoreKind): Promise<{ env: Record<string, string>; dispose(): Promise<void> }> {
  if (kind === 'postgres') {
    const database = await createPostgresDatabase();
    return { env: { DATABASE_URL: database.url }, dispose: database.drop };
  }
  const dir = await mkdtemp(join(tmpdir(), 'tare-example-'));
  return { env: { TARE_DATA_DIR: dir }, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** The caller's environment minus anything that would point Tare at another store or port. */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'TARE_DATA_DIR', 'PORT', 'HOST', 'REDIS_URL']) delete env[name];
  return { ...env, ...extra };
}

/** A port that was free a moment ago; the server keeps it across restarts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
