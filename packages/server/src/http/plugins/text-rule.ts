import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toIssues, unstorableTextErrors } from '../../domain/validation.js';
import { errors } from '../../errors.js';

const PARTS = [
  ['params', (request: FastifyRequest) => request.params],
  ['querystring', (request: FastifyRequest) => request.query],
  ['body', (request: FastifyRequest) => request.body],
] as const;

/**
 * The one rule for text (`unstorableTextErrors`: no NUL, no lone surrogate) for the request parts
 * a route declares no schema for: the admin's forms, queries and paths, and any route added later.
 * A part with a schema is checked by the validator (validator.ts) in the same words; this hook
 * covers the rest, so no text PostgreSQL cannot store reaches a query and answers 500.
 */
export function registerTextRule(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema;
    for (const [part, read] of PARTS) {
      const value = read(request);
      // A raw body (a signed webhook's bytes) is not text the route stores as such.
      if (schema?.[part] !== undefined || value === undefined || Buffer.isBuffer(value)) continue;
      const found = unstorableTextErrors(value);
      if (found.length) return done(errors.validation(toIssues(found), part));
    }
    done();
  });
}
