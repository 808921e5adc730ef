import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { retryConflicts } from '../../../store/conflict-retry.js';
import type { Db, Queryable } from '../../../store/db.js';
import {
  type IncomingEvent,
  type PlatformEventPayload,
  type PlatformEventTopic,
  storeEvent,
} from '../../../store/repositories/platform-events.js';

/** Emits one platform event in the transaction of the change it reports. */
export type Emit = (shopId: string, topic: PlatformEventTopic, payload: PlatformEventPayload) => Promise<void>;

export type DeliveryMode = 'orderly' | 'chaos';

/** The longest a chaos delivery is late, and the longest after commit its duplicate comes. */
const CHAOS_MAX_DELAY_MS = 1500;

/**
 * How the sandbox shop's events reach Tare's inbox (PRODUCT.md §14–15). Every event is stored
 * in the transaction of the change it reports, so it is durable exactly when the change is.
 *
 * - `orderly`: stored due now; the inbox applies it at once.
 * - `chaos` (TARE_SANDBOX_DELIVERY=chaos), what a real platform's webhooks may do: stored due
 *   0–1.5 s later (late, so events overtake each other), and delivered a second time with the
 *   same event id 0–1.5 s after commit (a duplicate, which the inbox must recognise).
 */
export function createEventDelivery(deps: {
  db: Db;
  mode: DeliveryMode;
  logger: Logger;
  /** Random numbers in [0, 1); tests may pass their own. */
  random?: () => number;
}) {
  const random = deps.random ?? Math.random;
  const chaos = deps.mode === 'chaos';
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  function redeliverLater(event: IncomingEvent) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const stored = storeEvent(deps.db, event).catch((err: unknown) =>
        deps.logger.warn({ err, eventId: event.eventId }, 'sandbox: duplicate delivery failed'),
      );
      inFlight.add(stored);
      void stored.finally(() => inFlight.delete(stored));
    }, random() * CHAOS_MAX_DELAY_MS);
    timer.unref();
    timers.add(timer);
  }

  return {
    mode: deps.mode,
    /**
     * Runs `work` in one transaction with an emitter that stores events in it; duplicates of a
     * chaos delivery are sent only once the transaction has committed.
     */
    async transaction<T>(work: (tx: Queryable, emit: Emit) => Promise<T>): Promise<T> {
      const emitted: IncomingEvent[] = [];
      const attempt = () =>
        deps.db.transaction((tx) => {
          emitted.length = 0;
          return work(tx, async (shopId, topic, payload) => {
            const event: IncomingEvent = {
              shopId,
              eventId: `sandbox:${randomUUID()}`,
              topic,
              payload,
              ...(chaos ? { notBefore: new Date(Date.now() + random() * CHAOS_MAX_DELAY_MS) } : {}),
            };
            await storeEvent(tx, event);
            emitted.push(event);
          });
        });
      // The platform's changes and Tare's processing of earlier events lock the same rows (the
      // order, the platform's level) from opposite ends; a deadlock aborts one of them, and the
      // platform, like any, tries its change again rather than fail the merchant's request.
      const result = await retryConflicts(attempt, random);
      if (chaos && !stopped) for (const event of emitted) redeliverLater(event);
      return result;
    },
    /** Cancels the duplicates not yet sent and waits for those being stored (before the store closes). */
    async stop(): Promise<void> {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
export type EventDelivery = ReturnType<typeof createEventDelivery>;
