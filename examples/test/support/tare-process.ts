/**
 * Tare as a new user runs it: `tare serve` as a child process on its own store, with the demo
 * shop and its key, CLI commands (handed to the server on PGlite), and restarts on the same port
 * so that a client keeps its base URL across them.
 *
 * Every process runs through the test process registry (child-processes.ts): in a process group
 * of its own, killed with everything it started whatever happens to the test.
 *
 * A server's first start on an empty store migrates it and loads the demo shop, the larger part
 * of its start-up. A test file that starts several servers can ask for `fromTemplate`: each
 * store is then a copy of one that `demoTemplate()` makes once per test process with
 * `tare demo` (migrated, demo shop loaded, one key), and every server starts as on a second start.
 */
import { rmSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type GroupProcess,
  type RunResult,
  onTeardown,
  runGroup,
  spawnGroup,
} from '../../../packages/server/test/support/child-processes.js';
import type { Db } from '../../../packages/server/src/store/db.js';
import { openDb } from '../../../packages/server/src/store/open-db.js';
import { createPostgresDatabase } from '../../../packages/server/test/support/databases.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/server/bin/tare.js');
const DEMO_KEY = /^ {2}(apik_[a-z2-7]{16}_[0-9A-Za-z]{32,})$/m;

export type StoreKind = 'pglite' | 'postgres';

export type Run = RunResult;

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set, as in the server's suites. */
export function storeKinds(): StoreKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface StartOptions {
  /** Kills the server and its commands when aborted: pass the test's `context.signal`. */
  signal?: AbortSignal;
  /** PGlite only: start on a copy of the demo template (see above) instead of an empty store. */
  fromTemplate?: boolean;
}

export interface TareProcess {
  /** The process group of the running server (undefined while stopped). */
  readonly groupId: number | undefined;
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
  /**
   * Follows a guide's reset line, `rm -rf .tare && npm start` (PGlite): stops the server, deletes
   * its store's folder and starts again on the same port, which migrates an empty store and loads
   * the demo shop afresh; resolves the new demo key that start prints.
   */
  resetStore(): Promise<string>;
  /** Opens the server's store in this process to inspect it; on PGlite only while the server is stopped. */
  openStore(): Promise<Db>;
  /** Runs `tare <args>` against the same store. */
  cli(args: string[]): Promise<Run>;
  /** Runs `node --import tsx examples/<script> <args>` against this server, as an integrator would. */
  example(script: string, args: string[]): Promise<Run>;
  /** Stops the server and deletes its store. */
  dispose(): Promise<void>;
}

export async function startTare(kind: StoreKind = 'pglite', options: StartOptions = {}): Promise<TareProcess> {
  const { signal } = options;
  const port = await freePort();
  const store = await createStore(kind, options.fromTemplate ?? false);
  const env = userEnv({ ...store.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  let server: GroupProcess | undefined;
  let firstOutput = '';
  /** What the running server has printed so far. */
  let output = '';

  const start = async () => {
    const proc = spawnGroup(process.execPath, [BIN, 'serve'], { cwd: REPO_ROOT, env, signal });
    server = proc;
    let stdout = '';
    let stderr = '';
    output = '';
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await new Promise<void>((resolve, reject) => {
      proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        output += chunk;
        if (stdout.includes('Tare is listening on')) resolve();
      });
      void proc.exited.then(({ code, signal: by }) =>
        reject(new Error(`tare serve exited (${code ?? by}) before listening:\n${stderr}`)),
      );
    });
    firstOutput ||= stdout;
  };

  const stop = async (how: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    await server?.kill(how);
  };

  const dispose = async () => {
    await stop('SIGKILL');
    await store.dispose();
  };

  try {
    await start();
  } catch (error) {
    await dispose();
    throw error;
  }
  const key = store.apiKey ?? DEMO_KEY.exec(firstOutput)?.[1];
  if (!key) {
    await dispose();
    throw new Error(`no demo key in the first start's output:\n${firstOutput}`);
  }

  return {
    get groupId() {
      return server?.running ? server.pid : undefined;
    },
    url: `http://127.0.0.1:${port}`,
    apiKey: key,
    storeEnv: { ...store.env },
    stop,
    start,
    async resetStore() {
      const dir = store.env.TARE_DATA_DIR;
      if (!dir) throw new Error('only a PGlite store is reset by deleting its folder');
      await stop();
      await rm(dir, { recursive: true, force: true });
      await start();
      // The key is printed once the server listens: wait for its line, as a reader reads it.
      for (let waited = 0; !DEMO_KEY.test(output) && waited < 10_000; waited += 50) await sleep(50);
      const key = DEMO_KEY.exec(output)?.[1];
      if (!key) throw new Error(`no demo key after the reset's start:\n${output}`);
      return key;
    },
    openStore: () => openDb({ databaseUrl: store.env.DATABASE_URL, dataDir: store.env.TARE_DATA_DIR }),
    cli: (args) => run([BIN, ...args], env, signal),
    example: (script, args) =>
      run(
        ['--import', 'tsx', join('examples', script), ...args],
        { ...process.env, TARE_URL: `http://127.0.0.1:${port}`, TARE_API_KEY: key },
        signal,
      ),
    dispose,
  };
}

/** `node <args>` from the repository root; never rejects, the exit code tells. */
function run(args: string[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<Run> {
  return runGroup(process.execPath, args, { cwd: REPO_ROOT, env, signal });
}

interface Store {
  env: Record<string, string>;
  /** The demo shop's key when the store already holds it (a copy of the template). */
  apiKey?: string;
  dispose(): Promise<void>;
}

async function createStore(kind: StoreKind, fromTemplate: boolean): Promise<Store> {
  if (kind === 'postgres') {
    if (fromTemplate) throw new Error('the demo template is a PGlite store');
    const database = await createPostgresDatabase();
    return { env: { DATABASE_URL: database.url }, dispose: database.drop };
  }
  const template = fromTemplate ? await demoTemplate() : undefined;
  const dir = await mkdtemp(join(tmpdir(), 'tare-example-'));
  const forget = onTeardown(() => rmSync(dir, { recursive: true, force: true }));
  if (template) await cp(template.dir, dir, { recursive: true });
  return {
    env: { TARE_DATA_DIR: dir },
    apiKey: template?.apiKey,
    async dispose() {
      forget();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let template: Promise<{ dir: string; apiKey: string }> | undefined;

/**
 * The demo template: a PGlite store as a first start leaves it, made once per test process by
 * `tare demo` on an empty dir, and removed with the registry's teardowns (after the test file).
 */
export function demoTemplate(): Promise<{ dir: string; apiKey: string }> {
  template ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tare-template-'));
    onTeardown(() => {
      rmSync(dir, { recursive: true, force: true });
      template = undefined;
    });
    const demo = await run([BIN, 'demo'], userEnv({ TARE_DATA_DIR: dir, LOG_LEVEL: 'warn' }));
    const apiKey = DEMO_KEY.exec(demo.stdout)?.[1];
    if (demo.code !== 0 || !apiKey) {
      throw new Error(`tare demo failed (${demo.code ?? demo.signal}):\n${demo.stdout}${demo.stderr}`);
    }
    return { dir, apiKey };
  })();
  template.catch(() => (template = undefined));
  return template;
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
