import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db, Queryable, QueryResult } from './db.js';
import { CHANNEL_NAME, createNestingGuard } from './nesting-guard.js';
import { extractSeed, findSeed, holdsCluster, seedTarball } from './pglite-seed.js';

/** PGlite Db plus what test support needs to snapshot a migrated database. */
export interface PgliteDb extends Db {
  readonly driver: 'pglite';
  /** Uncompressed tarball of the data dir: loads ~40% faster than gzip and stays in memory anyway. */
  dumpDataDir(): Promise<Blob>;
}

// Beside this module in the sources and, copied by scripts/bundle.mjs, beside the bundle.
const WORKER = new URL('./pglite-worker.mjs', import.meta.url);

export interface PgliteOptions {
  /** Where the cluster's files live; in memory when undefined. */
  dataDir?: string;
  /** A tarball of a data dir to start from (an in-memory store only). */
  loadDataDir?: Blob;
  /** Where to look for the seed cluster (default: beside the bundle, pglite-seed.ts); `false` runs initdb. */
  seed?: readonly string[] | false;
  /** Told why, when a new store runs initdb because there is no usable seed. */
  onWarning?: (message: string) => void;
}

/**
 * PGlite on a worker thread of its own (pglite-worker.mjs): it is WebAssembly that runs
 * synchronously, so on the main thread every statement would stall the HTTP event loop (measured
 * with 8 writers: event-loop lag p99 in the hundreds of ms). Requests and answers are messages;
 * rows are copied, which costs far less than the statements.
 *
 * A new store (a data dir without a cluster, or in memory) starts from the seed cluster the build
 * made instead of running initdb, whose peak (~800 MB RSS) a 512 MB container would not survive;
 * without a usable seed it runs initdb, as before, then restarts the worker once so that what
 * initdb left allocated (~600 MB) is given back.
 */
export async function openPglite(opts: PgliteOptions = {}): Promise<PgliteDb> {
  const { dataDir } = opts;
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
  let load = opts.loadDataDir && new Uint8Array(await opts.loadDataDir.arrayBuffer());
  let initdb = false;
  if (!load && (dataDir === undefined || !holdsCluster(dataDir))) {
    const seed = opts.seed === false ? { missing: 'the seed is turned off' } : await findSeed(opts.seed);
    if ('path' in seed) {
      if (dataDir === undefined) load = await seedTarball(seed.path);
      else await extractSeed(seed.path, dataDir);
    } else {
      initdb = true;
      opts.onWarning?.(`a new PGlite store runs initdb, which peaks near 800 MB of memory: ${seed.missing}`);
    }
  }
  const db = await startWorker(dataDir, load);
  if (!initdb || dataDir === undefined) return db;
  await db.close();
  return startWorker(dataDir, undefined);
}

async function startWorker(dataDir: string | undefined, load: Uint8Array<ArrayBuffer> | undefined): Promise<PgliteDb> {
  const worker = new Worker(WORKER, {
    workerData: { dataDir, loadDataDir: load, ...(await pgliteArtifacts()) },
    transferList: load ? [load.buffer] : [],
    // The parent's flags (a test runner's, --cpu-prof …) are not the worker's business.
    execArgv: [],
  });

  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 0;
  let stopped: Error | undefined;
  let ready!: () => void;
  let failedToOpen!: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failedToOpen = reject;
  });

  // Like a socket, the worker keeps the process alive only while a request is waiting on it.
  const idle = () => {
    if (pending.size === 0) worker.unref();
  };
  const stop = (error: Error) => {
    stopped ??= error;
    failedToOpen(stopped);
    for (const { reject } of pending.values()) reject(stopped);
    pending.clear();
  };
  worker.on('message', (m: WorkerMessage) => {
    if ('ready' in m) return ready();
    if ('notify' in m) return listeners.get(m.notify)?.(m.payload);
    const call = pending.get(m.id);
    pending.delete(m.id);
    idle();
    if ('error' in m) call?.reject(toError(m.error));
    else call?.resolve(m.result);
  });
  worker.on('error', (err) => stop(new Error(`PGlite stopped: ${err.message}`, { cause: err })));
  worker.on('exit', (code) => stop(new Error(`PGlite is closed (worker exited with ${code})`)));
  await opened;
  idle();

  const call = <T>(op: string, args: Record<string, unknown> = {}): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = ++nextId;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ id, op, ...args });
    });
  };
  const statement = <Row>(op: 'query' | 'txQuery', sql: string, params?: readonly unknown[]) =>
    call<QueryResult<Row>>(op, { sql, params: params?.map(portable) });

  // PGlite is a single session: every BEGIN..COMMIT must own it end to end, or a concurrent
  // statement would land inside (and be rolled back with) someone else's transaction. The queue
  // is first come, first served.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.then(noop, noop);
    return run;
  };

  const guard = createNestingGuard();
  const notNested = guard.assertNotNested;
  let nextListenId = 0;

  return {
    driver: 'pglite',
    query<Row>(sql: string, params?: readonly unknown[]) {
      notNested('query');
      return exclusive(() => statement<Row>('query', sql, params));
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      notNested('transaction');
      return exclusive(async () => {
        // The worker runs PGlite's own transaction(): BEGIN, then COMMIT or ROLLBACK on `end`,
        // and an error when COMMIT turns into ROLLBACK because the callback swallowed an error.
        await call('begin');
        const state = { open: true };
        const tx: Queryable = {
          query: (sql, params) =>
            state.open ? statement('txQuery', sql, params) : Promise.reject(new Error('Transaction is closed')),
        };
        let result: T;
        try {
          result = await guard.run(state, () => fn(tx));
        } catch (err) {
          state.open = false;
          await call('end', { commit: false }).catch(noop);
          throw err;
        }
        state.open = false;
        await call('end', { commit: true });
        return result;
      });
    },
    async listen(channel, onPayload) {
      notNested('listen');
      if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
      const listenId = ++nextListenId;
      listeners.set(listenId, onPayload);
      try {
        await exclusive(() => call('listen', { channel, listenId }));
      } catch (err) {
        listeners.delete(listenId);
        throw err;
      }
      return async () => {
        notNested('unlisten');
        listeners.delete(listenId);
        await exclusive(() => call('unlisten', { listenId }));
      };
    },
    async dumpDataDir() {
      notNested('dumpDataDir');
      return new Blob([await exclusive(() => call<Uint8Array<ArrayBuffer>>('dump'))]);
    },
    async close() {
      notNested('close');
      await exclusive(async () => {
        if (stopped) return;
        await call('close');
        await worker.terminate();
      });
    },
  };
}

/**
 * PGlite's WebAssembly compiled once per process and its file-system bundle read once: every
 * worker would otherwise compile 9 MB of WebAssembly again (seconds per store in the tests, which
 * open hundreds). A compiled module is shared with the workers, not copied.
 */
let artifacts: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Uint8Array }> | undefined;
function pgliteArtifacts() {
  artifacts ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasmModule, fsBundle] = await Promise.all([
      readFile(join(dist, 'pglite.wasm')).then((bytes) => WebAssembly.compile(bytes)),
      readFile(join(dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule, fsBundle: new Uint8Array(fsBundle) };
  })();
  artifacts.catch(() => (artifacts = undefined));
  return artifacts;
}

type WorkerMessage =
  | { ready: true }
  | { notify: number; payload: string }
  | { id: number; result: unknown }
  | { id: number; error: Record<string, unknown> & { message: string } };

/** The worker's error with PostgreSQL's fields (code, constraint …), as the error mapping reads them. */
function toError(fields: Record<string, unknown> & { message: string }): Error {
  const { message, stack: _stack, ...rest } = fields;
  return Object.assign(new Error(message), rest);
}

/**
 * A parameter as the worker will see it: messages keep plain data (strings, numbers, arrays,
 * dates, bytes, plain objects) but drop prototypes, so an object of a class (a Decimal) is sent
 * as its text, which is how PGlite would have serialized it.
 */
function portable(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(portable);
  if (value instanceof Date || value instanceof Uint8Array) return value;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null ? value : String(value);
}

function noop(): void {}
