/**
 * The one database interface every repository talks to. Two drivers implement it:
 * PGlite (embedded, one session) and node-postgres (a pool). Both return NUMERIC and
 * INT8 columns as exact decimal text, never as JS numbers.
 */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  /**
   * With `params` (even none: `[]`), `sql` is one statement, prepared once per session and then
   * only bound and executed; without, it goes by the simple protocol, may hold several statements
   * and is planned on every call (for migrations, DDL and one-off commands).
   */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /**
   * Set on a transaction that runs on the Citus worker holding its shop's shard (shard routing,
   * `store/shard-routing.ts`). Sequences and LISTEN live on the coordinator: a repository that
   * draws ids or notifies in a write that may be routed goes through this when it is set (the
   * ledger, the stock push queue, the inbox's events; `notifyAtCommit` in
   * `store/coordinator-calls.ts`). The driver refuses `nextval(` and `pg_notify(` in a routed
   * transaction, so one that forgets fails in every Citus suite instead of using a worker's own.
   */
  readonly coordinator?: CoordinatorCalls;
}

/** What a transaction routed to a worker asks of the coordinator. */
export interface CoordinatorCalls {
  /** `count` values of `sequence`, drawn on the coordinator (one series for every node). */
  nextIds(sequence: string, count: number): Promise<string[]>;
  /** Sent from the coordinator once the transaction has committed; dropped if it rolls back. */
  notifyAfterCommit(channel: string, payload: string): void;
}

export interface TransactionOptions {
  /**
   * The one shop whose rows the transaction reads and writes. With shard routing on (Citus),
   * it then runs on the worker that holds the shop's shard; elsewhere it changes nothing.
   */
  shopId?: string;
}

export type Unlisten = () => Promise<void>;

export interface Db extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction (READ COMMITTED), committing when it resolves and rolling
   * back when it throws. Use only `tx` inside `fn`: calling `db.query` from inside the
   * callback is a programming error (on PGlite it would wait for itself forever), and the
   * drivers reject it with an error instead.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Subscribes to PostgreSQL NOTIFY on `channel`; notifications arrive after commit. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<Unlisten>;
  close(): Promise<void>;
}
