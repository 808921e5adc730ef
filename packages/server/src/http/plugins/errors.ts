import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toIssues } from '../../domain/validation.js';
import { AppError, errors } from '../../errors.js';
import { isStoreUnavailable } from '../../store/unavailable.js';
import { failure } from '../envelope.js';
import { lingerOnClose } from '../lingering-close.js';
import { createRouteTable, type RouteTable } from '../route-table.js';

/** Fastify's own error codes that mean "the client sent something wrong", mapped to ours. */
function fromFastify(error: FastifyError, bodyLimit: number): AppError | undefined {
  if (error.validation) {
    // Paths are JSON pointers into the part that failed: the body, the query or the path params.
    return errors.validation(toIssues(error.validation as never), error.validationContext);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.unsupportedMediaType(undefined);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.badRequest('The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.badRequest('The request body is not valid JSON.');
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return errors.badRequest('The request body is not valid JSON.');
  }
  if (error.statusCode === 413) return errors.payloadTooLarge(bodyLimit);
  if (error.statusCode === 415) return errors.unsupportedMediaType(undefined);
  if (error.statusCode === 400) return errors.badRequest(error.message);
  return undefined;
}

/** A database outage is the service's, not the caller's, and passes: 503 with Retry-After. */
function fromStore(error: unknown): AppError | undefined {
  if (!isStoreUnavailable(error)) return undefined;
  return errors.unavailable(
    'The database is unavailable. Retry shortly; send a write again with the same Idempotency-Key.',
  );
}

/**
 * One place maps every failure to the envelope: AppErrors as they are, client mistakes
 * detected by Fastify to our codes, anything else to a logged 500 that leaks nothing.
 */
export function registerErrorHandling(app: FastifyInstance, opts: { bodyLimit: number; routes?: RouteTable }) {
  const routes = opts.routes ?? createRouteTable();
  app.addHook('onRoute', (route) => routes.add(route));

  // Fastify closes the connection of a body it refused while the client may still be sending
  // it. A hook, not the handler: the admin and the storefront answer with handlers of their own.
  app.addHook('onError', (request, reply, _error, done) => {
    if (!request.raw.complete && reply.getHeader('connection') === 'close') lingerOnClose(request.raw.socket);
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = error instanceof AppError ? error : (fromFastify(error, opts.bodyLimit) ?? fromStore(error));
    if (!appError || appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    const answer = appError && appError.code !== 'internal_error' ? appError : errors.internal();
    reply.status(answer.status).headers(answer.headers).send(failure(request, answer));
  });

  const routeMiss = (request: FastifyRequest, reply: FastifyReply) => {
    const error = routes.miss(request.method, request.url.split('?')[0] ?? '/');
    return reply.status(error.status).headers(error.headers).send(failure(request, error));
  };
  // Fastify runs its not-found handler like a route: it would read, size-check and parse the
  // body (and refuse a QUERY without Content-Type) before answering. The route is known to be
  // missing as soon as the request arrives, so 404 and 405 are sent then, ahead of any body error.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) return routeMiss(request, reply);
    done();
  });
  app.setNotFoundHandler(routeMiss);
}

/**
 * Fastify answers a URL it cannot decode (`/products/%ZZ`) or a path parameter over
 * `maxParamLength` before any hook runs, with its own body and no request id. Both are bad
 * input, so they get the envelope and the `X-Request-Id` header like every other answer.
 */
export function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const answer =
    error.code === 'FST_ERR_BAD_URL'
      ? errors.badRequest('The URL is not valid.')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? errors.badRequest('A path segment is too long.')
        : errors.internal();
  if (answer.code === 'internal_error') request.log.error({ err: error }, 'request failed');
  reply.status(answer.status).header('x-request-id', request.id).send(failure(request, answer));
}
