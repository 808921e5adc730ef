import type { Queryable } from './db.js';

/**
 * NOTIFY `channel` when `tx` commits: in `tx` itself, or from the coordinator once a transaction
 * routed to a worker has committed (every instance listens on the coordinator).
 */
export async function notifyAtCommit(tx: Queryable, channel: string, payload: string): Promise<void> {
  if (tx.coordinator) tx.coordinator.notifyAfterCommit(channel, payload);
  else await tx.query('SELECT pg_notify($1, $2)', [channel, payload]);
}
