import type { ErrorCode } from './types.js';

/** `error.code` of an answer, or the client's own code for a request that got no answer. */
export type TareErrorCode = ErrorCode | 'connection_error' | 'invalid_response' | (string & {});

export interface TareErrorInit {
  code: TareErrorCode;
  message: string;
  status: number | null;
  details?: Record<string, unknown> | null;
  requestId?: string | null;
  headers?: Headers;
  cause?: unknown;
}

/** Every failure the client reports: an error envelope of the API, or no usable answer at all. */
export class TareError extends Error {
  readonly code: TareErrorCode;
  /** HTTP status; null when no answer arrived (ConnectionError). */
  readonly status: number | null;
  readonly details: Record<string, unknown> | null;
  /** The `X-Request-Id` of the answer: quote it when you report a problem. */
  readonly requestId: string | null;
  readonly headers: Headers;

  constructor(init: TareErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? null;
    this.requestId = init.requestId ?? null;
    this.headers = init.headers ?? new Headers();
  }
}

/** 400: validation failed; `details.errors` lists `{ path, message }`. */
export class BadRequestError extends TareError {}
/** 401: missing, malformed, unknown, revoked or expired key. */
export class AuthenticationError extends TareError {}
/** 404: unknown route, or a resource that does not exist for your shop. */
export class NotFoundError extends TareError {}
/** 409: the same Idempotency-Key is still being processed. */
export class ConflictError extends TareError {}
/** 422: idempotency key reused, add-on inactive, or an edit that cannot be applied. */
export class UnprocessableError extends TareError {}
/** 5xx: the service, the store or the platform failed; nothing was changed. */
export class ServerError extends TareError {}

/** 429: over the key's budget; `retryAfter` is in seconds (null when the header is missing). */
export class RateLimitError extends TareError {
  readonly retryAfter: number | null;
  constructor(init: TareErrorInit & { retryAfter: number | null }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** No answer: the network failed or the request timed out (`timedOut`). */
export class ConnectionError extends TareError {
  readonly timedOut: boolean;
  constructor(message: string, options: { cause?: unknown; timedOut?: boolean } = {}) {
    super({ code: 'connection_error', message, status: null, cause: options.cause });
    this.timedOut = options.timedOut ?? false;
  }
}

/** The error class for an HTTP status. */
export function errorFromStatus(init: TareErrorInit & { status: number; retryAfter: number | null }): TareError {
  const { status } = init;
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 422) return new UnprocessableError(init);
  if (status === 429) return new RateLimitError(init);
  if (status >= 500) return new ServerError(init);
  return new TareError(init);
}
