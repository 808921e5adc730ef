import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Detects a `db.*` call made from inside a `db.transaction()` callback. On PGlite such a call
 * would wait for its own transaction forever; on a pool it would silently escape the
 * transaction. Both drivers refuse it the same way. `open` flips off when the callback settles,
 * so work it left running may use the db afterwards without being mistaken for nesting.
 *
 * On by default only under test (vitest sets NODE_ENV=test): on Node 20 the first
 * AsyncLocalStorage.run() turns on promise hooks for the whole process, which costs ~10% of
 * the CPU of every request. The test suites exercise every transaction path with it on.
 */
export function createNestingGuard(enabled = process.env.NODE_ENV === 'test') {
  if (!enabled) return { run: <T>(_state: { open: boolean }, fn: () => Promise<T>) => fn(), assertNotNested() {} };
  const inTx = new AsyncLocalStorage<{ open: boolean }>();
  return {
    run<T>(state: { open: boolean }, fn: () => Promise<T>): Promise<T> {
      return inTx.run(state, fn);
    },
    assertNotNested(what: string): void {
      if (inTx.getStore()?.open) {
        throw new Error(`db.${what}() was called inside a db.transaction() callback; use the callback's tx instead`);
      }
    },
  };
}

/** Channels are interpolated into LISTEN; the rule keeps PGlite and PostgreSQL agreeing on names. */
export const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;
