import type { Logger } from 'pino';
import { PlatformUnavailableError } from '../../platform/gateway.js';
import type { Db, Queryable } from '../../store/db.js';
import {
  completePushes,
  leaseDuePushes,
  postponePushes,
  postponeShopPushes,
  PROJECTION_QUEUE,
  PROJECTION_QUEUED,
  type QueuedPush,
  wakeQueuedPushes,
} from '../../store/repositories/projection-outbox.js';
import { nextDueInMs, shopsDueWithin } from '../../store/repositories/due-shops.js';
import { createDrainLoop } from '../drain-loop.js';
import { retryDelayMs } from '../events/inbox-worker.js';
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
  /** How often shops with pushes due later (retries after backoff) are looked at. */
  pollMs?: number;
  /** How often every shop is looked at for pushes no notification announced (`SWEEP_MS`). */
  sweepMs?: number;
}

/** A push not answered in this long is due again (another instance may take it). */
const LEASE_MS = 60_000;
/** The longest wait between tries when the platform names none: a probe costs one call. */
export const MAX_RETRY_MS = 30_000;

/**
 * Pushes the whole units queued in the projection outbox to remote platforms (PRODUCT.md §16),
 * until each lands: a batch of one shop's levels per call, leased so that instances share the
 * work, postponed on throttling and outages by what the platform says (or exponential backoff).
 * A push the platform refused as stale is settled by §14's rules (see settleStalePush).
 */
export function createPushWorker(options: PushWorkerOptions) {
  const { db, logger } = options;
  const batchSize = options.batchSize ?? 100;

  /** Pushes one batch of the shop's due pushes; the shop, or undefined when none was due. */
  async function pushOneBatch(shopId: string): Promise<string | undefined> {
    const batch = await leaseDuePushes(db, shopId, batchSize, LEASE_MS);
    if (batch.length === 0) return undefined;
    await push(shopId, batch);
    return shopId;
  }

  async function push(shopId: string, batch: QueuedPush[]): Promise<void> {
    let outcomes: PushOutcome[];
    const attempts = Math.max(...batch.map((p) => p.attempts));
    try {
      outcomes = await options.push(shopId, batch);
    } catch (err) {
      const error = String((err as Error).message ?? err);
      if (err instanceof PlatformUnavailableError) {
        // The platform itself is down, throttling or stopped: the shop's every push waits for
        // one probe, as long as the platform asks or by backoff (capped: a probe is cheap).
        const retryInMs = err.retryAfterMs ?? Math.min(MAX_RETRY_MS, retryDelayMs(attempts));
        logger.warn({ err, shopId, retryInMs }, 'projection pushes postponed');
        await postponeShopPushes(db, shopId, { error, retryInMs });
        return;
      }
      if (batch.length > 1) {
        // The platform refused something in the batch (a level it does not stock): each is
        // tried alone, so that one level cannot hold the others back.
        for (const single of batch) await push(shopId, [single]);
        return;
      }
      const retryInMs = Math.min(MAX_RETRY_MS, retryDelayMs(attempts));
      logger.warn({ err, shopId, level: batch[0], retryInMs }, 'projection push refused');
      await postponePushes(db, batch, { error, retryInMs });
      return;
    }
    await completePushes(
      db,
      batch.filter((_, i) => outcomes[i]?.status === 'applied'),
    );
    for (const [i, queued] of batch.entries()) {
      if (outcomes[i]?.status !== 'applied') {
        await settleStalePush(db, queued, (tx, level) => options.readLevel(tx, shopId, level));
      }
    }
    // After failures, the platform is back: what waited behind them need not wait any longer.
    if (attempts > 1) await wakeQueuedPushes(db, shopId);
    logger.debug({ shopId, levels: batch.length }, 'projection pushed');
  }

  return createDrainLoop({
    db,
    logger,
    channel: PROJECTION_QUEUED,
    step: pushOneBatch,
    nextDueInMs: (shopId) => nextDueInMs(db, PROJECTION_QUEUE, shopId),
    shopsDueWithin: (withinMs) => shopsDueWithin(db, PROJECTION_QUEUE, withinMs),
    pollMs: options.pollMs,
    sweepMs: options.sweepMs,
    failureMessage: 'projection outbox unavailable; retrying',
  });
}
export type PushWorker = ReturnType<typeof createPushWorker>;
