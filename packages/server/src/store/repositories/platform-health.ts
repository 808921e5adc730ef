import type { Queryable } from '../db.js';

export interface PlatformHealth {
  inbox: { pending: number; parked: number };
  outbox: { pending: number; lagSeconds: number };
  /** Shopify connections by status (`active`, `uninstalled`, `unauthorized`). */
  connections: Record<string, number>;
}

/** Every shop's sync at a glance, in one round trip: what `/metrics` reports on each scrape. */
export async function platformHealth(db: Queryable): Promise<PlatformHealth> {
  const { rows } = await db.query<{
    inbox: PlatformHealth['inbox'];
    outbox: PlatformHealth['outbox'];
    connections: Record<string, number> | null;
  }>(
    `SELECT
       (SELECT json_build_object('pending', count(*) FILTER (WHERE status = 'pending'),
                                 'parked', count(*) FILTER (WHERE status = 'parked'))
          FROM platform_events) AS inbox,
       (SELECT json_build_object('pending', count(*),
                                 'lagSeconds', COALESCE(extract(epoch FROM now() - min(enqueued_at)), 0))
          FROM projection_outbox) AS outbox,
       (SELECT json_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM shopify_connections GROUP BY status) c)
         AS connections`,
  );
  const row = rows[0]!;
  return {
    inbox: { pending: Number(row.inbox.pending), parked: Number(row.inbox.parked) },
    outbox: { pending: Number(row.outbox.pending), lagSeconds: Number(row.outbox.lagSeconds) },
    connections: Object.fromEntries(Object.entries(row.connections ?? {}).map(([k, v]) => [k, Number(v)])),
  };
}
