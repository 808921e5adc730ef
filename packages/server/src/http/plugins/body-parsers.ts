import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { errors } from '../../errors.js';

/**
 * Request bodies are JSON, parsed with prototype-poisoning protection; any other media type is
 * 415. Fastify never reads a body on GET/HEAD, so a body sent there is ignored (the form-data
 * key of app settings is read by the authentication plugin itself).
 */
export function registerBodyParsers(app: FastifyInstance) {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(errors.badRequest('The request body is empty; send a JSON object.'), undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(errors.badRequest('The request body is not valid JSON.'), undefined);
    }
  });
  app.addContentTypeParser('*', (request, _payload, done) => {
    done(errors.unsupportedMediaType(request.headers['content-type']), undefined);
  });
}
