// @ts-check
// The PGlite session, on a worker thread: PGlite is WebAssembly running synchronously on the
// thread that calls it, so on the main thread a long statement would stall every HTTP request.
// pglite-driver.ts sends one request at a time (its queue keeps a transaction's statements
// together) and this side only runs them. Plain JavaScript, so the same file runs under tsx,
// vitest and the bundle without a loader. `@electric-sql/pglite/worker` is not used: it needs the
// Web Locks API (`navigator.locks`), which Node 20 lacks, and elects a leader among browser tabs.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

// NUMERIC and INT8 as the server's exact text; PGlite derives the array parsers from these.
const EXACT_TEXT = { 1700: (/** @type {string} */ v) => v, 20: (/** @type {string} */ v) => v };

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { dataDir, loadDataDir, pgliteWasmModule, fsBundle } = workerData;

const pg = await PGlite.create({
  dataDir,
  loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined,
  parsers: EXACT_TEXT,
  pgliteWasmModule,
  fsBundle: new Blob([fsBundle]),
  // The default 128 MB of shared buffers is most of PGlite's memory; a shop catalog and its
  // inventory fit in far less (measured: server RSS 412 → 290 MB under load).
  postgresqlconf: ['shared_buffers = 16MB'],
});

/** The open transaction: its PGlite handle and how to end it. */
let tx;
/** @type {Map<number, () => Promise<void>>} */
const unlistens = new Map();

const handlers = {
  query: ({ sql, params }) => run(pg, sql, params),
  begin: () =>
    new Promise((began, failed) => {
      // PGlite's own transaction() issues BEGIN/COMMIT/ROLLBACK and throws when COMMIT turns
      // into ROLLBACK because the caller swallowed an error; it holds the session until `end`.
      const done = pg.transaction(
        (ptx) =>
          new Promise((commit, rollback) => {
            tx = { ptx, commit, rollback, done };
            began(undefined);
          }),
      );
      done.catch(failed);
    }),
  txQuery: ({ sql, params }) => run(tx.ptx, sql, params),
  async end({ commit }) {
    const current = tx;
    tx = undefined;
    if (commit) current.commit(undefined);
    else current.rollback(ROLLED_BACK);
    try {
      await current.done;
    } catch (err) {
      if (err !== ROLLED_BACK) throw err;
    }
  },
  async listen({ channel, listenId }) {
    unlistens.set(listenId, await pg.listen(channel, (payload) => port.postMessage({ notify: listenId, payload })));
  },
  async unlisten({ listenId }) {
    const unlisten = unlistens.get(listenId);
    unlistens.delete(listenId);
    await unlisten?.();
  },
  async dump() {
    const blob = await pg.dumpDataDir('none');
    return new Uint8Array(await blob.arrayBuffer());
  },
  // The driver terminates this thread once the answer arrived: exiting here could overtake it.
  close: () => pg.close(),
};
const ROLLED_BACK = Symbol('rolled back');

port.on('message', async ({ id, op, ...args }) => {
  try {
    const result = await handlers[op](args);
    port.postMessage({ id, result }, result instanceof Uint8Array ? [result.buffer] : []);
  } catch (err) {
    port.postMessage({ id, error: plainError(err) });
  }
});
port.postMessage({ ready: true });

/**
 * Without params, runs `sql` through the simple protocol (exec) so it may hold several
 * statements, as node-postgres does; the result is the last statement's.
 */
async function run(q, sql, params) {
  if (params === undefined || params.length === 0) {
    const all = await q.exec(sql);
    return toResult(all.at(-1));
  }
  return toResult(await q.query(sql, params));
}

function toResult(r) {
  if (r === undefined) return { rows: [], rowCount: 0 };
  return { rows: r.rows, rowCount: r.rowCount ?? r.rows.length };
}

/** An error as plain data: its message and PostgreSQL's fields (code, constraint, detail …). */
function plainError(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { ...fields, message: err.message, name: err.name, stack: err.stack };
}
