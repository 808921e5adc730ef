import type { Logger } from 'pino';
import type { PlatformGateway } from '../../platform/gateway.js';
import { retryConflicts } from '../../store/conflict-retry.js';
import type { Db } from '../../store/db.js';
import { nextDueInMs, shopsDueWithin } from '../../store/repositories/due-shops.js';
import {
  claimDueEvent,
  INBOX_QUEUE,
  type InboxEvent,
  markFailed,
  PLATFORM_EVENT_STORED,
} from '../../store/repositories/platform-events.js';
import { createDrainLoop } from '../drain-loop.js';
import { processEvent } from './process-event.js';

export interface InboxWorkerOptions {
  db: Db;
  gateway: PlatformGateway;
  logger: Logger;
  /** How often shops with events due later (late and retried ones) are looked at. */
  pollMs?: number;
  /** How often every shop is looked at for events no notification announced (`SWEEP_MS`). */
  sweepMs?: number;
  /** Failed attempts after which an event is parked with its error. */
  maxAttempts?: number;
}

/** Retry delay after the n-th failed attempt: 1 s, 2 s, 4 s … capped at 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Works through the inbox: each event is claimed and processed in one transaction, which
 * commits its `processed` mark with its bookings, so it is applied exactly once even with several instances (each claims
 * with SKIP LOCKED) or a crash half-way (the transaction never committed: the event is still
 * pending). A failing event is retried with backoff and parked after `maxAttempts`, out of
 * the way of the others.
 */
export function createInboxWorker(options: InboxWorkerOptions) {
  const { db, gateway, logger } = options;
  const maxAttempts = options.maxAttempts ?? 10;

  /** Processes one of the shop's due events; the shop, or undefined when none was due. */
  async function processOne(shopId: string): Promise<string | undefined> {
    let claimed: InboxEvent | undefined;
    try {
      // A deadlock with a write or another event is no failure of the event: its transaction
      // (reads of the platform are all it does outside) runs again at once.
      const outcome = await retryConflicts(() =>
        db.transaction(async (tx) => {
          claimed = await claimDueEvent(tx, shopId);
          if (!claimed) return undefined;
          return processEvent(tx, gateway, claimed);
        }),
      );
      if (claimed)
        logger.info({ eventId: claimed.eventId, topic: claimed.topic, ...outcome }, 'platform event processed');
      return claimed?.shopId;
    } catch (err) {
      if (!claimed) throw err;
      const attempts = claimed.attempts + 1;
      const park = attempts >= maxAttempts;
      logger.warn({ err, eventId: claimed.eventId, topic: claimed.topic, attempts, park }, 'platform event failed');
      await markFailed(db, claimed, {
        error: String((err as Error).message ?? err),
        retryInMs: retryDelayMs(attempts),
        park,
      });
      return claimed.shopId;
    }
  }

  return createDrainLoop({
    db,
    logger,
    channel: PLATFORM_EVENT_STORED,
    step: processOne,
    nextDueInMs: (shopId) => nextDueInMs(db, INBOX_QUEUE, shopId),
    shopsDueWithin: (withinMs) => shopsDueWithin(db, INBOX_QUEUE, withinMs),
    pollMs: options.pollMs,
    sweepMs: options.sweepMs,
    failureMessage: 'platform event inbox unavailable; retrying',
  });
}
export type InboxWorker = ReturnType<typeof createInboxWorker>;
