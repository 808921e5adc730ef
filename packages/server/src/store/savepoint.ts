import type { Queryable } from './db.js';

/**
 * Runs `fn` inside a savepoint of the caller's transaction: when it throws, what it wrote is
 * undone (and a statement error no longer aborts the transaction), the rest of the transaction
 * stands, and the error is rethrown for the caller to judge. Savepoints nest by name as
 * PostgreSQL's do, so the same name may be used at every depth.
 */
export async function inSavepoint<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
  await tx.query('SAVEPOINT tare_attempt');
  try {
    const result = await fn();
    await tx.query('RELEASE SAVEPOINT tare_attempt');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT tare_attempt');
    await tx.query('RELEASE SAVEPOINT tare_attempt');
    throw error;
  }
}
