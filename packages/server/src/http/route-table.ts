import type { RouteOptions } from 'fastify';
import { type AppError, errors } from '../errors.js';

/**
 * The methods and path patterns of every registered route, to answer a request no route takes:
 * 404 for an unknown path, 405 with `Allow` for a known path asked with another method. Fastify's
 * router only says "no route", and a method Node's parser does not know never reaches it.
 */
export interface RouteTable {
  add(route: Pick<RouteOptions, 'method' | 'url'>): void;
  /** The 404 or 405 for `method` on `path` (the path as sent, without its query). */
  miss(method: string, path: string): AppError;
}

export function createRouteTable(): RouteTable {
  const routes: { method: string; pattern: RegExp }[] = [];
  return {
    add(route) {
      const pattern = patternOf(route.url);
      for (const method of [route.method].flat()) routes.push({ method, pattern });
    },
    miss(method, path) {
      const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
      // A path that matches a route only up to a trailing slash is missed with an allowed
      // method too (`GET /products/1/`): that is an unknown URL, not a wrong method.
      return allowed.length && !allowed.includes(method)
        ? errors.methodNotAllowed(method, allowed)
        : errors.routeNotFound(method, path);
    },
  };
}

/** `/products/:productId` → `^/products/[^/]+/?$`; `/docs/static/*` matches everything below. */
function patternOf(url: string): RegExp {
  const source = url
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:[A-Za-z0-9_]+/g, '[^/]+')
    .replace(/\*/g, '.*');
  return new RegExp(`^${source}/?$`);
}
