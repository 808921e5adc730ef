import { ERROR_STATUS, type ErrorCode, type ValidationIssue } from '@tare/contracts';

/**
 * The one error type of the service. Everything thrown toward a client is an AppError built by
 * the factories below; anything else becomes `internal_error` in the HTTP error handler.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const errors = {
  /** 400 listing every issue; the message names the first so a human sees it at a glance. */
  validation: (issues: ValidationIssue[], part?: 'body' | 'querystring' | 'params' | 'headers') =>
    new AppError('bad_request', describeIssues(issues), part ? { in: part, errors: issues } : { errors: issues }),
  badRequest: (message: string, details: Record<string, unknown> | null = null) =>
    new AppError('bad_request', message, details),
  unauthorized: () =>
    new AppError('unauthorized', 'A valid API key is required.', null, { 'www-authenticate': 'Bearer' }),
  notFound: (resource: string, id: string, extra: Record<string, unknown> = {}) =>
    new AppError('not_found', `No ${resource} with id '${id}' was found.`, { resource, id, ...extra }),
  routeNotFound: (method: string, url: string) =>
    new AppError('not_found', `No route ${method} ${url}.`, { method, path: url }),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new AppError(
      'method_not_allowed',
      `Method ${method} is not allowed here.`,
      { allowed },
      {
        allow: allowed.join(', '),
      },
    ),
  payloadTooLarge: (limitBytes: number) =>
    new AppError('payload_too_large', `The request body exceeds ${limitBytes} bytes.`, { limitBytes }),
  unsupportedMediaType: (contentType: string | undefined) =>
    new AppError('unsupported_media_type', 'The request body must be JSON (application/json).', {
      contentType: contentType ?? null,
    }),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(
      'rate_limited',
      'Too many requests; retry later.',
      { retryAfterSeconds },
      {
        'retry-after': String(retryAfterSeconds),
      },
    ),
  unavailable: (message = 'The service is not ready.') =>
    new AppError('service_unavailable', message, null, { 'retry-after': '1' }),
  internal: () => new AppError('internal_error', 'An unexpected error occurred. Quote the requestId to support.'),
};

function describeIssues(issues: ValidationIssue[]): string {
  const [first] = issues;
  if (!first) return 'The request is invalid.';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `The request is invalid: ${first.path} ${first.message}${more}.`;
}
