import type { Logger } from 'pino';
import { PlatformUnavailableError } from '../../platform/gateway.js';
import type { MetafieldOutcome } from '../../platform/shopify/metafields.js';
import type { Db } from '../../store/db.js';
import {
  completeMetafields,
  failMetafields,
  leaseDueMetafields,
  METAFIELD_QUEUE,
  METAFIELDS_QUEUED,
  postponeMetafields,
  type QueuedMetafield,
  wakeQueuedMetafields,
} from '../../store/repositories/metafield-outbox.js';
import { nextDueInMs, shopsDueWithin } from '../../store/repositories/due-shops.js';
import { createDrainLoop } from '../drain-loop.js';
import { retryDelayMs } from '../events/inbox-worker.js';
import { MAX_RETRY_MS } from '../projection/push-worker.js';

/** Sends one shop's documents to its platform (throws PlatformUnavailableError when it cannot now). */
export type WriteMetafields = (shopId: string, items: QueuedMetafield[]) => Promise<MetafieldOutcome[]>;

export interface MetafieldWorkerOptions {
  db: Db;
  write: WriteMetafields;
  logger: Logger;
  /** Documents per round (metafieldsSet takes 25 at a time; the writer splits larger rounds). */
  batchSize?: number;
  /** How often shops with documents due later (retries after backoff) are looked at. */
  pollMs?: number;
  /** How often every shop is looked at for documents no notification announced (`SWEEP_MS`). */
  sweepMs?: number;
}

/** A write not answered in this long is due again (another instance may take it). */
const LEASE_MS = 60_000;

/**
 * Writes the storefront metafields queued in the metafield outbox (PRODUCT.md §18) with the
 * stock outbox's rules (§16): one shop's documents per round, leased so that instances share
 * the work; an outage or throttling postpones the shop's every document to one probe (as long as
 * Shopify asks, else exponential backoff, capped); another failure postpones the round by
 * backoff. A document Shopify refused (a user error) is marked failed and waits for a newer one.
 */
export function createMetafieldWorker(options: MetafieldWorkerOptions) {
  const { db, logger } = options;
  const batchSize = options.batchSize ?? 100;

  /** Writes one batch of the shop's due documents; the shop, or undefined when none was due. */
  async function writeOneBatch(shopId: string): Promise<string | undefined> {
    const batch = await leaseDueMetafields(db, shopId, batchSize, LEASE_MS);
    if (batch.length === 0) return undefined;
    const attempts = Math.max(...batch.map((m) => m.attempts));
    let outcomes: MetafieldOutcome[];
    try {
      outcomes = await options.write(shopId, batch);
    } catch (err) {
      const error = String((err as Error).message ?? err);
      const backoff = Math.min(MAX_RETRY_MS, retryDelayMs(attempts));
      if (err instanceof PlatformUnavailableError) {
        const retryInMs = err.retryAfterMs ?? backoff;
        logger.warn({ err, shopId, retryInMs }, 'metafield writes postponed');
        await postponeMetafields(db, shopId, { error, retryInMs });
      } else {
        logger.warn({ err, shopId, retryInMs: backoff }, 'metafield write refused');
        await postponeMetafields(db, shopId, { error, retryInMs: backoff }, batch);
      }
      return shopId;
    }
    await completeMetafields(
      db,
      batch.filter((_, i) => outcomes[i]?.status === 'written'),
    );
    const refused = batch.flatMap((item, i) => {
      const outcome = outcomes[i];
      return outcome?.status === 'refused' ? [{ item, error: outcome.error }] : [];
    });
    if (refused.length > 0) logger.warn({ shopId, refused: refused.length }, 'Shopify refused metafields');
    await failMetafields(db, refused);
    if (attempts > 1) await wakeQueuedMetafields(db, shopId);
    logger.debug({ shopId, metafields: batch.length }, 'metafields written');
    return shopId;
  }

  return createDrainLoop({
    db,
    logger,
    channel: METAFIELDS_QUEUED,
    step: writeOneBatch,
    nextDueInMs: (shopId) => nextDueInMs(db, METAFIELD_QUEUE, shopId),
    shopsDueWithin: (withinMs) => shopsDueWithin(db, METAFIELD_QUEUE, withinMs),
    pollMs: options.pollMs,
    sweepMs: options.sweepMs,
    failureMessage: 'metafield outbox unavailable; retrying',
  });
}
export type MetafieldWorker = ReturnType<typeof createMetafieldWorker>;
