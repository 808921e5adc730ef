import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { errors } from '../../errors.js';

const takesNoBody = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD';

/**
 * Bodies: JSON for writes; form data only for the app-settings `key` field. A body sent to an
 * endpoint that takes none (GET) is ignored rather than parsed, so it can never fail the request.
 */
export async function registerBodyParsers(app: FastifyInstance) {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (takesNoBody(request)) return done(null, undefined);
    const text = String(body);
    if (text.trim() === '') return done(errors.badRequest('The request body is empty; send a JSON object.'), undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(errors.badRequest('The request body is not valid JSON.'), undefined);
    }
  });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 20, fieldSize: 4096, files: 0, parts: 20 },
  });
  app.addContentTypeParser('*', (request, payload, done) => {
    if (takesNoBody(request)) {
      payload.resume();
      return done(null, undefined);
    }
    done(errors.unsupportedMediaType(request.headers['content-type']), undefined);
  });
}

/** preValidation guard for JSON endpoints: any other media type is 415. */
export async function requireJson(request: FastifyRequest) {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw errors.unsupportedMediaType(request.headers['content-type']);
}
