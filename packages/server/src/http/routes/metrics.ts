import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
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
  const durations = requestDurations(registry);
  app.addHook('onResponse', (request, reply, done) => {
    durations.observe(
      request.method,
      request.routeOptions.url ?? 'unknown',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
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

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * `tare_http_request_duration_seconds` by method, route and status: the lines prom-client's
 * Histogram writes (metrics.test.ts compares them), but an observation is a bucket count and a
 * sum found by route, method and status. prom-client validates and hashes the labels of every
 * observation, which cost more than the rest of the hook on a cached read.
 */
export function requestDurations(registry: Registry) {
  const name = 'tare_http_request_duration_seconds';
  const help = 'HTTP request duration by method, route and status';
  type Series = {
    labels: { method: string; route: string; status: string };
    counts: number[];
    sum: number;
    count: number;
  };
  // In the order first seen, as prom-client lists them.
  let series: Series[] = [];
  // Route → method → status, so a lookup hashes no string made for it (route and method
  // strings are Fastify's and Node's own, their hashes kept).
  const byRoute = new Map<string, Map<string, Map<number, Series>>>();

  // prom-client's shape for the registry to print: cumulative buckets, then +Inf, sum and count.
  const values = () =>
    series.flatMap(({ labels, counts, sum, count }) => {
      let cumulative = 0;
      return [
        ...DURATION_BUCKETS.map((le, i) => ({
          labels: { le },
          sharedLabels: labels,
          value: (cumulative += counts[i]!),
          metricName: `${name}_bucket`,
        })),
        { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${name}_bucket` },
        { labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count` },
      ];
    });
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    getForPromString: async () => ({ name, help, type: 'histogram', values: values(), aggregator: 'sum' }),
    get: async () => ({
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      values: values().map(({ labels, sharedLabels, ...value }) => ({
        ...value,
        labels: { ...labels, ...sharedLabels },
      })),
    }),
    reset: () => {
      series = [];
      byRoute.clear();
    },
  };
  registry.registerMetric(metric as unknown as Metric);

  return {
    observe(method: string, route: string, status: number, seconds: number) {
      let byMethod = byRoute.get(route);
      if (!byMethod) byRoute.set(route, (byMethod = new Map()));
      let byStatus = byMethod.get(method);
      if (!byStatus) byMethod.set(method, (byStatus = new Map()));
      let entry = byStatus.get(status);
      if (!entry) {
        entry = {
          labels: { method, route, status: String(status) },
          counts: DURATION_BUCKETS.map(() => 0),
          sum: 0,
          count: 0,
        };
        byStatus.set(status, entry);
        series.push(entry);
      }
      for (let i = 0; i < DURATION_BUCKETS.length; i++) {
        if (seconds <= DURATION_BUCKETS[i]!) {
          entry.counts[i]!++;
          break;
        }
      }
      entry.sum += seconds;
      entry.count++;
    },
  };
}
