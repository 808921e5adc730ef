// @ts-check
// The PGlite session, on a worker thread: PGlite is WebAssembly running synchronously on the
// thread that calls it, so on the main thread a long statement would stall every HTTP request.
// pglite-driver.ts sends one request at a time (its queue keeps a transaction's statements
// together) and this side only runs them. Plain JavaScript, so the same file runs under tsx,
// vitest and the bundle without a loader. `@electric-sql/pglite/worker` is not used: it needs the
// Web Locks API (`navigator.locks`), which Node 20 lacks, and elects a leader among browser tabs.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';

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
  query: ({ sql, params }) => run(pg, sql, params, false),
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
  txQuery: ({ sql, params }) => run(tx.ptx, sql, params, true),
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
 * statements, as node-postgres does; the result is the last statement's. With params (even
 * none), runs the statement prepared (`runPrepared`).
 */
async function run(q, sql, params, inTransaction) {
  if (params === undefined) {
    const all = await q.exec(sql);
    return toResult(all.at(-1));
  }
  return toResult(await runPrepared(sql, params, inTransaction));
}

const { serialize } = protocol;
/** @type {Map<string, { name: string, types: number[] }>} statements prepared in this session, by text */
const prepared = new Map();

/**
 * Runs a statement with params as a named prepared statement of the session, parsed and described
 * the first time its text is seen and then only bound and executed, as the PostgreSQL driver's
 * named statements are (decision 68). PGlite's own query() parses, analyzes and plans the text
 * on every call, which for Tare's statements is most of their cost (a write's level lock: 1.4 ms
 * each time, 0.2 ms prepared). The messages are PGlite's own protocol serializers, and the
 * answer is read by its own parseResults, as query() does: in one exchange each, ending in Sync,
 * so a failing statement leaves the session ready (a transaction then is aborted, as before).
 */
async function runPrepared(sql, params, inTransaction) {
  let statement = prepared.get(sql);
  if (!statement) {
    const name = `tare_${prepared.size}`;
    const described = await pg.execProtocolStream(
      join(serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()),
      { syncToFs: false },
    );
    statement = { name, types: parse.parseDescribeStatementResults(described) };
    prepared.set(sql, statement);
  }
  const { name, types } = statement;
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = pg.serializers[types[i]];
    return serializer ? serializer(value) : value.toString();
  });
  const messages = await pg.execProtocolStream(
    join(
      serialize.bind({ statement: name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ),
    // As query(): the data dir is synced after a statement outside a transaction, else at COMMIT.
    { syncToFs: !inTransaction },
  );
  return parse.parseResults(messages, pg.parsers)[0];
}

/** @param {Uint8Array[]} parts */
function join(...parts) {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
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
