/**
 * PostgreSQL aborts one of two transactions that lock rows in opposite orders (deadlock, 40P01),
 * or one it cannot serialize (40001). Nothing of the aborted one is kept, and its documented
 * remedy is to run it again, which whoever owns a whole transaction without outside effects
 * can do. Retried a few times after a short random pause, so two losers do not meet again.
 */
const ATTEMPTS = 5;

function isConflictAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** Runs `transaction` (a whole transaction: begun and ended inside) until it is not aborted by a conflict. */
export async function retryConflicts<T>(transaction: () => Promise<T>, random: () => number = Math.random): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isConflictAbort(error) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, random() * 50 * attempt));
    }
  }
}
