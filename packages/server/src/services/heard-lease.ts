import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Db, Unlisten } from '../store/db.js';

/**
 * How long after proving it has heard every notification an instance trusts what it cached from
 * them (API keys): a writer whose change must reach every instance at once (a key revocation)
 * waits `HEARD_WAIT_MS` after its commit, longer than this, before it returns.
 */
export const HEARD_TRUST_MS = 400;
/** What a revocation waits after its commit on PostgreSQL: more than HEARD_TRUST_MS (see above). */
export const HEARD_WAIT_MS = 500;
/**
 * A renewal starts when the proof is this old and a request asks, so a busy instance never lapses:
 * its echo has 300 ms to come back (under a saturated event loop it took more than 200 at times).
 */
const RENEW_AFTER_MS = HEARD_TRUST_MS / 4;

/**
 * A lease on "this instance has heard every notification committed up to a recent moment", so
 * that a cache dropped by NOTIFY may answer without asking the database, and a change that
 * returned to its writer is never answered from a cache that has not heard of it.
 *
 * NOTIFY is delivered after commit, asynchronously: a revocation's COMMIT can return before
 * another instance's listener has read its notification (measured: most of the time, by up to
 * milliseconds under load). So the instance proves where its listener is: it notifies its own
 * channel (`SELECT pg_notify`, its own transaction) and waits to hear it back. PostgreSQL
 * delivers every listener's notifications in commit order through one queue, and the driver
 * hands them to the handlers in that order on one connection, so hearing the echo of a
 * notification sent at time `s` means every notification committed before `s` has been handled
 * (the key cache has dropped what it named). `fresh()` is true while the newest such `s` is at
 * most HEARD_TRUST_MS old. A revoker waits HEARD_WAIT_MS after its commit `c`: a request that
 * arrives after the revocation returned, at `r ≥ c + HEARD_WAIT_MS`, is served from the cache
 * only if `s ≥ r − HEARD_TRUST_MS > c`, so the instance heard the revocation first. An instance
 * that cannot renew (listener down, database slow, event loop stalled) stops trusting its cache
 * and asks the database, which is always right.
 *
 * Renewals happen on demand: `fresh()` starts one when the proof is older than a quarter of the
 * trust window, so a busy instance sends about ten small notifications a second and an idle one none.
 */
export function createHeardLease(deps: { db: Db; now?: () => number }) {
  const now = deps.now ?? (() => performance.now());
  // One channel per instance: its echoes reach no other instance's handlers.
  const channel = `tare_heard_${randomBytes(8).toString('hex')}`;
  const sent = new Map<string, number>();
  let seq = 0;
  let heardSentAt = -Infinity;
  let renewingSince: number | undefined;

  function renew(at: number) {
    renewingSince = at;
    const id = String(++seq);
    if (sent.size >= 64) sent.clear(); // echoes that never came (a listener down): renewals go on
    sent.set(id, at);
    deps.db.query('SELECT pg_notify($1, $2)', [channel, id]).catch(() => {
      // The database is unavailable: the lease lapses and requests ask the database (and fail there).
      sent.delete(id);
      if (renewingSince === at) renewingSince = undefined;
    });
  }

  function heard(id: string) {
    const at = sent.get(id);
    if (at === undefined) return;
    for (const [other, otherAt] of sent) if (otherAt <= at) sent.delete(other);
    if (at > heardSentAt) heardSentAt = at;
    if (renewingSince !== undefined && renewingSince <= at) renewingSince = undefined;
  }

  return {
    /** Whether cached answers may be used now; starts a renewal when the proof is getting old. */
    fresh(): boolean {
      const t = now();
      const age = t - heardSentAt;
      // A renewal whose echo never came (a listener reconnected meanwhile) is retried after the window.
      if (age > RENEW_AFTER_MS && (renewingSince === undefined || t - renewingSince > HEARD_TRUST_MS)) renew(t);
      return age <= HEARD_TRUST_MS;
    },
    /** Listens on the instance's channel; call before serving. */
    start(): Promise<Unlisten> {
      return deps.db.listen(channel, heard);
    },
  };
}
export type HeardLease = ReturnType<typeof createHeardLease>;
