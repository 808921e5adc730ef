import type { Logger } from 'pino';
import type { Db } from '../store/db.js';

export interface DrainLoopOptions {
  db: Db;
  logger: Logger;
  /** NOTIFY channel on which new work is announced (by any instance or CLI); the payload is the shop's id. */
  channel: string;
  /** Does one unit of the shop's work; resolves to the shop, or undefined when none was due. */
  step: (shopId: string) => Promise<string | undefined>;
  /** Milliseconds until the shop's next pending work is due (0: now), null when it has none. */
  nextDueInMs: (shopId: string) => Promise<number | null>;
  /**
   * The sweep: the shops whose work is due now or within `withinMs`, each with the ms until then
   * (0: now), the longest waiting first. The one cross-shop read.
   */
  shopsDueWithin: (withinMs: number) => Promise<ReadonlyMap<string, number>>;
  /** How often shops whose work falls due (retries after backoff) are looked at. */
  pollMs?: number;
  /**
   * How often every shop is looked at (on Citus: every shard), for work announced to no one
   * listening (a notification lost with its connection, a lease whose instance died).
   */
  sweepMs?: number;
  /** Logged when a step throws (the store is unreachable); the next wake-up tries again. */
  failureMessage: string;
}

/** The default of `sweepMs`: a lost notification delays its work by a minute at most. */
export const SWEEP_MS = 60_000;

/**
 * Runs `step` until nothing is due, one run at a time per process (decision 111). What wakes
 * it says where to look, so that an idle poll asks the store nothing:
 * - a notification names its shop: that shop is drained (one shard on Citus);
 * - after a shop is drained, its next due time is read (one shard) and the shop is scheduled;
 *   every `pollMs` the shops whose time has come are drained, and none when none has;
 * - every `sweepMs`, at start and on `drainNow` every shop is looked at (the queue's one
 *   cross-shop read): the shops with work due are drained as above, and those whose work falls
 *   due before the next sweep are scheduled for it.
 * A wake-up during a run is kept and looked at before the run stops.
 */
export function createDrainLoop(options: DrainLoopOptions) {
  const sweepMs = options.sweepMs ?? SWEEP_MS;
  let running: Promise<void> | undefined;
  let stopped = false;
  let sweepWanted = false;
  /** Shops to drain now. */
  const wanted = new Set<string>();
  /** Shops whose next work falls due at this time (ms since the epoch, this process's clock). */
  const scheduled = new Map<string, number>();

  async function drainShop(shopId: string): Promise<void> {
    while (!stopped && (await options.step(shopId)) !== undefined);
    if (stopped) return;
    const inMs = await options.nextDueInMs(shopId);
    // Due already (held by another instance, or just made due): looked at again on the next
    // poll, not at once, so a row another instance holds is not asked for in a busy loop.
    if (inMs !== null) schedule(shopId, Date.now() + Math.max(inMs, 1));
  }

  function schedule(shopId: string, at: number): void {
    const known = scheduled.get(shopId);
    if (known === undefined || at < known) scheduled.set(shopId, at);
  }

  async function run(): Promise<void> {
    while (!stopped && (sweepWanted || wanted.size > 0)) {
      if (sweepWanted) {
        sweepWanted = false;
        try {
          const due = await options.shopsDueWithin(sweepMs);
          const now = Date.now(); // the store's "ms until" is counted from its answer
          for (const [shopId, inMs] of due) {
            if (inMs === 0) wanted.add(shopId);
            else schedule(shopId, now + inMs);
          }
        } catch (err) {
          sweepWanted = true; // the store failed: the next poll sweeps again
          throw err;
        }
        continue;
      }
      const shopId = wanted.values().next().value as string;
      wanted.delete(shopId);
      scheduled.delete(shopId);
      try {
        await drainShop(shopId);
      } catch (err) {
        schedule(shopId, Date.now()); // the store failed: the next poll tries the shop again
        throw err;
      }
    }
  }

  function kick(): Promise<void> {
    if (stopped) return Promise.resolve();
    let failed = false;
    running ??= run()
      .catch((err: unknown) => {
        failed = true;
        options.logger.warn({ err }, options.failureMessage);
      })
      .finally(() => {
        running = undefined;
        // Woken between the run's last look and here: run again (after a failure, the next poll does).
        if (!failed && (sweepWanted || wanted.size > 0)) void kick();
      });
    return running;
  }

  /** Drains the shop named (a notification), or every shop (a sweep) without one. */
  function wake(shopId?: string): Promise<void> {
    if (shopId === undefined || shopId === '') sweepWanted = true;
    else wanted.add(shopId);
    return kick();
  }

  /** The shops scheduled by now are drained; without any, nothing is asked of the store. */
  function poll(): Promise<void> {
    const now = Date.now();
    for (const [shopId, at] of scheduled) if (at <= now) wanted.add(shopId);
    return wanted.size > 0 || sweepWanted ? kick() : Promise.resolve();
  }

  return {
    wake,
    poll,
    /** Does everything due now in every shop and resolves when nothing due is left (tests, CLI, benchmarks). */
    async drainNow(): Promise<void> {
      await wake();
      while (running) await running;
    },
    /** Shops with work due later, and when (tests, statistics). */
    scheduled: (): ReadonlyMap<string, number> => scheduled,
    /** Listens and polls; resolves to the function that stops and waits for the current run. */
    async start(): Promise<() => Promise<void>> {
      const unlisten = await options.db.listen(options.channel, (shopId) => void wake(shopId));
      const pollTimer = setInterval(() => void poll(), options.pollMs ?? 1000);
      const sweepTimer = setInterval(() => void wake(), sweepMs);
      pollTimer.unref();
      sweepTimer.unref();
      void wake();
      return async () => {
        stopped = true;
        clearInterval(pollTimer);
        clearInterval(sweepTimer);
        await unlisten();
        await running;
      };
    },
  };
}
