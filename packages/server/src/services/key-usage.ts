import type { Logger } from 'pino';
import type { Db } from '../store/db.js';
import { touchApiKeys } from '../store/repositories/api-keys.js';

/**
 * Records `lastUsedAt` off the request path: `record` only notes the key in memory; a timer
 * writes all noted keys in one UPDATE, at most once a minute per key. A slow or failing write
 * is logged and never reaches a request.
 */
export function createKeyUsageRecorder(deps: { db: Db; log: Logger; flushEveryMs?: number; minIntervalMs?: number }) {
  const minInterval = deps.minIntervalMs ?? 60_000;
  const lastWritten = new Map<string, number>();
  let pending = new Set<string>();
  let flushing: Promise<void> | undefined;

  async function flush(): Promise<void> {
    if (flushing) return flushing;
    if (pending.size === 0) return;
    const ids = [...pending];
    pending = new Set();
    const at = new Date();
    flushing = touchApiKeys(deps.db, ids, at)
      .then(() => {
        for (const id of ids) lastWritten.set(id, at.getTime());
      })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not record API key usage'))
      .finally(() => {
        flushing = undefined;
      });
    return flushing;
  }

  const timer = setInterval(() => void flush(), deps.flushEveryMs ?? 10_000);
  timer.unref();

  return {
    record(keyId: string) {
      const last = lastWritten.get(keyId);
      if (last === undefined || Date.now() - last >= minInterval) pending.add(keyId);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
export type KeyUsageRecorder = ReturnType<typeof createKeyUsageRecorder>;
