import type { Db, Queryable } from '../../src/store/db.js';

/** A statement sent to the store, with its parameters. */
export interface Sent {
  sql: string;
  params: readonly unknown[];
}

/** `db` with every statement it (or a transaction of it) runs recorded in `sent`. */
export function recording(db: Db, sent: Sent[]): Db {
  const record = (q: Queryable): Queryable['query'] =>
    ((sql: string, params: readonly unknown[] = []) => {
      sent.push({ sql, params });
      return q.query(sql, params);
    }) as Queryable['query'];
  return {
    ...db,
    query: record(db),
    transaction: (fn, options) => db.transaction((tx) => fn({ ...tx, query: record(tx) }), options),
  };
}
