import type { Logger } from 'pino';
import type { Db } from '../store/db.js';

export interface DrainLoopOptions {
  db: Db;
  logger: Logger;
  /** NOTIFY channel on which new work is announced (by any instance or CLI). */
  channel: string;
  /** Does one unit of work; false when none was due. */
  step: () => Promise<boolean>;
  /** How often due work is looked for without a notification (retries after backoff). */
  pollMs?: number;
  /** Logged when a step throws (the store is unreachable); the next wake-up tries again. */
  failureMessage: string;
}

/**
 * Runs `step` until nothing is due, whenever work is announced or every `pollMs`: one run at a
 * time per process, and a wake-up during a run makes it look again before it stops.
 */
export function createDrainLoop(options: DrainLoopOptions) {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function run(): Promise<void> {
    do {
      again = false;
      while (!stopped && (await options.step()));
    } while (again && !stopped);
  }

  function wake(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = run()
      .catch((err: unknown) => options.logger.warn({ err }, options.failureMessage))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    wake,
    /** Does everything due now and resolves when nothing due is left (tests, CLI, benchmarks). */
    async drainNow(): Promise<void> {
      await wake();
      while (running) await running;
    },
    /** Listens and polls; resolves to the function that stops and waits for the current run. */
    async start(): Promise<() => Promise<void>> {
      const unlisten = await options.db.listen(options.channel, () => void wake());
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
