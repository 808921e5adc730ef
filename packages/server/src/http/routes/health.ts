import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import type { Db } from '../../store/db.js';
import { failure, success } from '../envelope.js';

/** Liveness (the process answers) and readiness (the store answers), outside /api/v1. */
export function healthRoutes(deps: { db: Db }) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', { schema: { hide: true } }, async (request) => success(request, { status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
      try {
        await deps.db.query('SELECT 1');
        return success(request, { status: 'ready' });
      } catch (error) {
        request.log.warn({ err: error }, 'store not reachable');
        const unavailable = errors.unavailable('The store is not reachable.');
        return reply.status(unavailable.status).headers(unavailable.headers).send(failure(request, unavailable));
      }
    });
  };
}
