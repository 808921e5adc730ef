import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../store/db.js';
import { platformHealth } from '../../store/repositories/platform-health.js';

/**
 * GET /metrics: Prometheus text. Request durations by route pattern (never the raw URL, which
 * would explode cardinality with ids) and status, how the platforms' sync keeps up, plus the
 * process's default metrics.
 */
export function registerMetrics(app: FastifyInstance, deps: { db: Db }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerPlatformGauges(registry, deps.db);
  const duration = new Histogram({
    name: 'tare_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  // One labelled child per (method, route, status), looked up by a flat string key: labelling
  // an observation from an object on every request costs more than the observation itself.
  const children = new Map<string, ReturnType<typeof duration.labels>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unknown';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = children.get(key);
    if (!child) {
      child = duration.labels({ method: request.method, route, status: String(reply.statusCode) });
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}

/** The inbox backlog, the projection lag and the connections' state, read from the store per scrape. */
function registerPlatformGauges(registry: Registry, db: Db) {
  // One query fills every gauge: the first gauge collected in a scrape starts it, the others share it.
  let scrape: Promise<void> | undefined;
  const refresh = () =>
    (scrape ??= platformHealth(db)
      .then((health) => {
        inbox.set({ status: 'pending' }, health.inbox.pending);
        inbox.set({ status: 'parked' }, health.inbox.parked);
        outboxPending.set(health.outbox.pending);
        outboxLag.set(health.outbox.lagSeconds);
        for (const status of ['active', 'uninstalled', 'unauthorized']) {
          connections.set({ status }, health.connections[status] ?? 0);
        }
      })
      .catch(() => {}) // the store is down: the gauges keep their last values, /health says why
      .finally(() => setImmediate(() => (scrape = undefined))));
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry], collect: refresh });
  const inbox = gauge('tare_platform_inbox_events', 'Platform events waiting (pending) or given up on (parked)', [
    'status',
  ]);
  const outboxPending = gauge('tare_projection_outbox_pending', 'Levels whose whole units wait to reach the platform');
  const outboxLag = gauge('tare_projection_outbox_lag_seconds', 'Age of the oldest whole-unit push still waiting');
  const connections = gauge('tare_shopify_connections', 'Shopify connections by status', ['status']);
}
