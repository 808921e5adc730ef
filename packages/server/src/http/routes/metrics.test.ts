import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { requestDurations } from './metrics.js';

describe('requestDurations', () => {
  it("when requests are observed, then /metrics shows what prom-client's Histogram would", async () => {
    const ours = new Registry();
    const durations = requestDurations(ours);
    const theirs = new Registry();
    const histogram = new Histogram({
      name: 'tare_http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [theirs],
    });
    const observations: [string, string, number, number][] = [
      ['GET', '/api/v1/products/:productId', 200, 0.0004],
      ['GET', '/api/v1/products/:productId', 200, 0.001],
      ['GET', '/api/v1/products/:productId', 404, 0.0031],
      ['POST', '/api/v1/inventory/adjustments', 200, 0.7],
      ['GET', '/api/v1/products/:productId', 200, 0.0123],
      ['GET', 'unknown', 404, 3.2],
      ['GET', '/api/v1/products/:productId', 200, 2.5],
    ];
    for (const [method, route, status, seconds] of observations) {
      durations.observe(method, route, status, seconds);
      histogram.labels({ method, route, status: String(status) }).observe(seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
