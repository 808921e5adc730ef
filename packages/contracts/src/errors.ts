/**
 * The closed catalogue of error codes and the HTTP status each one answers with
 * (PRODUCT.md §3). Server, SDK and OpenAPI document all read this one table.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  request_timeout: 408,
  headers_too_large: 431,
  idempotency_key_reused: 422,
  addon_inactive: 422,
  unprocessable: 422,
  rate_limited: 429,
  internal_error: 500,
  platform_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ValidationIssue {
  /** JSON pointer into the request part, e.g. `/adjustments/3/delta/unit`. */
  path: string;
  message: string;
}
