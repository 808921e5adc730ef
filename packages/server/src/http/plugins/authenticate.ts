import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, errors } from '../../errors.js';
import type { Authenticator, Principal } from '../../services/api-keys.js';
import type { KeyUsageRecorder } from '../../services/key-usage.js';
import type { FailureBudget } from './failure-budget.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** App settings only: the key may come from the form field `key` when no header is sent. */
    keyFromForm?: boolean;
  }
}

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
const FORM_BODY_LIMIT = 64 * 1024;

const BEARER = /^Bearer[ \t]+(\S+)\s*$/i;

function bearerToken(header: string): string {
  return BEARER.exec(header)?.[1] ?? '';
}

async function presentedKey(request: FastifyRequest): Promise<string | undefined> {
  const header = request.headers.authorization;
  if (header !== undefined) return bearerToken(header);
  if (request.routeOptions.config.keyFromForm) {
    const key = await formKeyOfBodylessRequest(request);
    return typeof key === 'string' ? key : undefined;
  }
  return undefined;
}

/**
 * Fastify never parses a body on GET/HEAD (they are "bodyless" methods), so the form field
 * `key` of `GET /app-settings` is read here from the raw stream: url-encoded or multipart,
 * at most 64 KiB, parsed by the platform's own FormData parser. Anything else gives no key.
 */
async function formKeyOfBodylessRequest(request: FastifyRequest): Promise<unknown> {
  const contentType = request.headers['content-type'];
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!contentType || !mediaType || !FORM_TYPES.has(mediaType) || request.raw.readableEnded) return undefined;
  const declared = Number(request.headers['content-length']);
  if (declared > FORM_BODY_LIMIT) throw errors.payloadTooLarge(FORM_BODY_LIMIT);
  const body = await new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.raw.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= FORM_BODY_LIMIT) chunks.push(chunk);
    });
    request.raw.once('end', () => resolve(size <= FORM_BODY_LIMIT ? Buffer.concat(chunks) : undefined));
    request.raw.once('error', reject);
  });
  if (!body) throw errors.payloadTooLarge(FORM_BODY_LIMIT);
  try {
    const bytes = new Uint8Array(body.length);
    bytes.set(body);
    const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    return form.get('key') ?? undefined;
  } catch {
    return undefined; // a malformed form carries no key: the answer is the usual 401
  }
}

/**
 * Registered in the /api/v1 scope: every route there needs a key of its shop, and
 * `request.principal` carries it to the handler. Health and metrics live outside that scope.
 *
 * Failed authentications are budgeted per client address (see createFailureBudget; the budget
 * is shared with failed webhook signatures); an address over budget is answered 429
 * `rate_limited` with Retry-After, unless its key is one this instance has already verified in
 * memory (that costs no lookup, so there is nothing to save).
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: {
    authenticator: Authenticator;
    keyUsage: KeyUsageRecorder;
    failureBudget: FailureBudget;
  },
) {
  const budget = deps.failureBudget;
  app.decorateRequest('principal', null as unknown as Principal);
  // Callback style so that a warm key (the common case) costs no promise at all.
  app.addHook('preValidation', (request, _reply, done) => {
    const accept = (principal: Principal) => {
      request.principal = principal;
      deps.keyUsage.record(principal.keyId);
      done();
    };
    const refuse = (error: Error) => {
      if (!(error instanceof AppError) || error.code !== 'unauthorized') return done(error);
      budget.spend(request, error).then(done, done);
    };
    try {
      const header = request.headers.authorization;
      const cached = header === undefined ? undefined : deps.authenticator.authenticateCached(bearerToken(header));
      if (cached) return accept(cached);
    } catch (error) {
      return refuse(error as Error);
    }
    const blocked = budget.blocked(request);
    if (blocked) return done(blocked);
    presentedKey(request)
      .then((key) => deps.authenticator.authenticate(key))
      .then(accept, refuse);
  });
}
