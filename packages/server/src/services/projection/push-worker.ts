import type { Logger } from 'pino';
import { PlatformUnavailableError } from '../../platform/gateway.js';
import type { Db, Queryable } from '../../store/db.js';
import {
  completePush,
  leaseDuePushes,
  postponePushes,
  PROJECTION_QUEUED,
  type QueuedPush,
} from '../../store/repositories/projection-outbox.js';
import { settleStalePush } from './settle-stale-push.js';

/** What a remote platform did with each push of a batch, in order. */
export type PushOutcome = { status: 'applied' } | { status: 'stale' };

/** Sends one shop's batch to its platform (throws PlatformUnavailableError when it cannot now). */
export type PushLevels = (shopId: string, pushes: QueuedPush[]) => Promise<PushOutcome[]>;

export interface PushWorkerOptions {
  db: Db;
  push: PushLevels;
  /** Reads what the platform shows for a level whose push was stale. */
  readLevel: (tx: Queryable, shopId: string, level: { locationId: string; variantId: string }) => Promise<number>;
  logger: Logger;
  /** Levels per platform call (Shopify's inventorySetQuantities takes a list). */
  batchSize?: number;
  /** How often due pushes are looked for without a notification (retries after backoff). */
  pollMs?: number;
}

/** Retry delay after the n-th failed attempt when the platform names none: 1 s, 2 s … 5 min. */
export function pushRetryDelayMs(attempts: number): number {
  return Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/** A push not answered in this long is due again (another instance may take it). */
const LEASE_MS = 60_000;

/**
 * Pushes the whole units queued in the projection outbox to remote platforms (PRODUCT.md §16),
 * until each lands: a batch of one shop's levels per call, leased so that instances share the
 * work, postponed on throttling and outages by what the platform says (or exponential backoff).
 * A push the platform refused as stale is settled by §14's rules (see settleStalePush).
 */
export function createPushWorker(options: PushWorkerOptions) {
  const { db, logger } = options;
  const batchSize = options.batchSize ?? 100;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function pushOneBatch(): Promise<boolean> {
    const batch = await leaseDuePushes(db, batchSize, LEASE_MS);
    if (batch.length === 0) return false;
    const shopId = batch[0]!.shopId;
    let outcomes: PushOutcome[];
    try {
      outcomes = await options.push(shopId, batch);
    } catch (err) {
      const attempts = Math.max(...batch.map((p) => p.attempts));
      const retryInMs =
        err instanceof PlatformUnavailableError ? (err.retryAfterMs ?? pushRetryDelayMs(attempts)) : pushRetryDelayMs(attempts);
      logger.warn({ err, shopId, levels: batch.length, retryInMs }, 'projection push postponed');
      await postponePushes(db, batch, { error: String((err as Error).message ?? err), retryInMs });
      return true;
    }
    for (const [i, push] of batch.entries()) {
      if (outcomes[i]?.status === 'applied') await completePush(db, push);
      else await settleStalePush(db, push, (tx, level) => options.readLevel(tx, shopId, level));
    }
    logger.debug({ shopId, levels: batch.length }, 'projection pushed');
    return true;
  }

  async function run(): Promise<void> {
    do {
      again = false;
      while (!stopped && (await pushOneBatch()));
    } while (again && !stopped);
  }

  function wake(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = run()
      .catch((err: unknown) => logger.warn({ err }, 'projection outbox unavailable; retrying'))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    wake,
    /** Pushes everything due now and resolves when nothing due is left (tests, benchmarks). */
    async drainNow(): Promise<void> {
      await wake();
      while (running) await running;
    },
    async start(): Promise<() => Promise<void>> {
      const unlisten = await db.listen(PROJECTION_QUEUED, () => void wake());
      const timer = setInterval(() => void wake(), options.pollMs ?? 1000);
      timer.unref();
      void wake();
      return async () => {
        stopped = true;
        clearInterval(timer);
        await unlisten();
        await running;
      };
    },
  };
}
export type PushWorker = ReturnType<typeof createPushWorker>;
