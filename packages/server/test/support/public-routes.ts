import type { RouteOptions } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import type { RunningServer } from '../../src/main.js';

/** A route of Tare's API as registered: one method, its URL and its schemas. */
export interface PublicRoute {
  method: string;
  url: string;
  schema: Partial<Record<'params' | 'querystring' | 'body', unknown>>;
}

/**
 * Every route registered under /api/v1 and /sandbox and not hidden from the OpenAPI document, one
 * per method. The served app is already listening, so a second one is built over the same
 * services; its routes are read once every plugin is in, since a plugin's own onRoute hook (the
 * storefront hides its pages and Shopify-shaped cart) runs after the app's on the same options.
 */
export async function publicRoutes(server: RunningServer): Promise<PublicRoute[]> {
  const registered: RouteOptions[] = [];
  const collector = await buildApp({
    ...server.services,
    logger: createLogger('silent'),
    bodyLimit: 1024 * 1024,
    rateLimitStore: { kind: 'memory' },
    sandbox: true,
    onRoute: (route: RouteOptions) => void registered.push(route),
  });
  await collector.ready();
  await collector.close();
  return registered
    .filter((route) => /^\/(api\/v1|sandbox)\//.test(route.url) && !route.schema?.hide)
    .flatMap((route) =>
      [route.method]
        .flat()
        .filter((method) => method !== 'HEAD')
        .map((method) => ({ method, url: route.url, schema: (route.schema ?? {}) as PublicRoute['schema'] })),
    );
}
