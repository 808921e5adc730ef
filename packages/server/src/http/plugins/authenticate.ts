import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, errors } from '../../errors.js';
import type { Authenticator, Principal } from '../../services/api-keys.js';
import type { KeyUsageRecorder } from '../../services/key-usage.js';
import { createTokenBuckets, type RateLimitStore } from './rate-limit.js';

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

/** Failed authentications per client address: a burst of 60, then one a second. */
const FAILURES_PER_MINUTE = 60;
const BLOCKED_LIMIT = 10_000;

export interface FailureBudgetOptions {
  /** Capacity and refill per minute of each address's bucket (default 60). */
  perMinute?: number;
  /** The clock; tests pass their own. */
  now?: () => number;
}

/**
 * Failed authentications per client address (`request.ip`): a token bucket per address in the
 * rate-limit store (memory, or Redis so that instances share it), spent by each 401. An address
 * without a token left is refused before its key is even read, until its next token: this
 * instance remembers that from its own take, so a refused request costs no store or Redis call.
 */
function createFailureBudget(store: RateLimitStore, options: FailureBudgetOptions = {}) {
  const perMinute = options.perMinute ?? FAILURES_PER_MINUTE;
  const now = options.now ?? Date.now;
  const buckets = createTokenBuckets(store, options.now);
  const blockedUntil = new Map<string, number>();

  function block(address: string, ms: number) {
    if (blockedUntil.size >= BLOCKED_LIMIT) {
      const t = now();
      for (const [other, until] of blockedUntil) if (until <= t) blockedUntil.delete(other);
      if (blockedUntil.size >= BLOCKED_LIMIT) blockedUntil.clear();
    }
    blockedUntil.set(address, now() + ms);
  }

  return {
    /** Milliseconds until `address` may try a key again; 0 when it may now. */
    waitFor(address: string): number {
      if (blockedUntil.size === 0) return 0;
      const until = blockedUntil.get(address);
      if (until === undefined) return 0;
      const left = until - now();
      if (left > 0) return left;
      blockedUntil.delete(address);
      return 0;
    },
    /** Spends a token for a failure from `address`; resolves to the wait when none was left, else 0. */
    async failed(address: string): Promise<number> {
      const taken = await buckets.take(`auth-failures:${address}`, perMinute);
      // The last token is spent: the next failure would be refused, so refuse before its lookup.
      if (!taken.allowed || taken.remaining === 0) block(address, taken.msToNextToken);
      return taken.allowed ? 0 : taken.msToNextToken;
    },
  };
}

/**
 * Registered in the /api/v1 scope: every route there needs a key of its shop, and
 * `request.principal` carries it to the handler. Health and metrics live outside that scope.
 *
 * Failed authentications are budgeted per client address (see createFailureBudget); an address
 * over budget is answered 429 `rate_limited` with Retry-After, unless its key is one this
 * instance has already verified in memory (that costs no lookup, so there is nothing to save).
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: {
    authenticator: Authenticator;
    keyUsage: KeyUsageRecorder;
    rateLimitStore: RateLimitStore;
    failureBudget?: FailureBudgetOptions;
  },
) {
  const budget = createFailureBudget(deps.rateLimitStore, deps.failureBudget);
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
      budget.failed(request.ip).then(
        (waitMs) => done(waitMs > 0 ? errors.rateLimited(Math.ceil(waitMs / 1000)) : error),
        (storeError: unknown) => {
          // Fail open, like the per-key limiter: the failure goes uncounted, the answer is the 401.
          request.log.warn({ err: storeError }, 'failed-authentication budget unavailable; not counted');
          done(error);
        },
      );
    };
    try {
      const header = request.headers.authorization;
      const cached = header === undefined ? undefined : deps.authenticator.authenticateCached(bearerToken(header));
      if (cached) return accept(cached);
    } catch (error) {
      return refuse(error as Error);
    }
    const waitMs = budget.waitFor(request.ip);
    if (waitMs > 0) return done(errors.rateLimited(Math.ceil(waitMs / 1000)));
    presentedKey(request)
      .then((key) => deps.authenticator.authenticate(key))
      .then(accept, refuse);
  });
}
