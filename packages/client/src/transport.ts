import { ConnectionError, TareError, errorFromStatus } from './errors.js';
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './retry.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportConfig {
  apiKey: string;
  baseUrl: string;
  maxRetries: number;
  timeoutMs: number;
  fetch: FetchLike;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
}

/** Per-call options, as in stripe-node's second argument. */
export interface RequestOptions {
  /** Reused on every retry of this call; generated when a write needs one and none is given. */
  idempotencyKey?: string;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  /** An array is sent as a repeated parameter: `variantId=1&variantId=2`. */
  query?: Record<string, string | number | readonly string[] | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  options?: RequestOptions;
}

export interface TransportResponse {
  status: number;
  headers: Headers;
  /** The parsed envelope; undefined for 304. */
  body: any;
  requestId: string;
}

/**
 * Sends one logical request: retries network errors, timeouts, 409, 429 and 5xx with backoff
 * (honouring Retry-After), throws a typed TareError for anything else that is not 2xx or 304.
 * A write is only retried when it carries an Idempotency-Key, so the server applies it once.
 */
export async function send(config: TransportConfig, request: TransportRequest): Promise<TransportResponse> {
  const maxRetries = request.options?.maxRetries ?? config.maxRetries;
  const timeoutMs = request.options?.timeoutMs ?? config.timeoutMs;
  const url = buildUrl(config.baseUrl, request.path, request.query);
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${config.apiKey}`,
    ...request.headers,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.options?.idempotencyKey !== undefined) headers['idempotency-key'] = request.options.idempotencyKey;
  const init: RequestInit = {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  };
  const retrySafe = request.method === 'GET' || headers['idempotency-key'] !== undefined;

  for (let attempt = 0; ; attempt++) {
    const canRetry = retrySafe && attempt < maxRetries;
    let answer: { response: Response; text: string };
    try {
      answer = await fetchOnce(config.fetch, url, init, timeoutMs);
    } catch (cause) {
      const error = toConnectionError(cause, timeoutMs);
      if (!canRetry) throw error;
      await config.sleep(backoffDelay(attempt, config.random));
      continue;
    }
    const { response, text } = answer;
    if ((response.status >= 200 && response.status < 300) || response.status === 304) {
      const body = response.status === 304 ? undefined : parseJson(text);
      if (response.status !== 304 && (body === undefined || body === null || typeof body !== 'object')) {
        throw invalidResponse(response, text);
      }
      return {
        status: response.status,
        headers: response.headers,
        body,
        requestId: body?.requestId ?? response.headers.get('x-request-id') ?? '',
      };
    }
    const error = toApiError(response, text, config.now());
    if (!canRetry || !isRetryableStatus(response.status)) throw error;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), config.now());
    await config.sleep(retryAfter !== null ? retryAfter * 1000 : backoffDelay(attempt, config.random));
  }
}

// The timer also covers reading the body: an answer that stalls half-way is a timeout too.
async function fetchOnce(
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ response: Response; text: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutSignal(timeoutMs)), timeoutMs);
  try {
    const response = await fetchImpl(url, { ...init, signal: controller.signal });
    const text = await response.text();
    return { response, text };
  } catch (err) {
    throw controller.signal.aborted ? controller.signal.reason : err;
  } finally {
    clearTimeout(timer);
  }
}

class TimeoutSignal extends Error {
  constructor(readonly timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms`);
  }
}

function toConnectionError(cause: unknown, timeoutMs: number): ConnectionError {
  if (cause instanceof TimeoutSignal) return new ConnectionError(cause.message, { cause, timedOut: true });
  if (cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError')) {
    return new ConnectionError(`request timed out after ${timeoutMs} ms`, { cause, timedOut: true });
  }
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ConnectionError(`could not reach Tare: ${detail}`, { cause });
}

function toApiError(response: Response, text: string, now: number): TareError {
  const body = parseJson(text);
  const error = body?.error;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now);
  const requestId = body?.requestId ?? response.headers.get('x-request-id');
  if (!error || typeof error.code !== 'string') {
    return errorFromStatus({
      code: response.status >= 500 ? 'internal_error' : 'invalid_response',
      message: `HTTP ${response.status} without an error envelope`,
      status: response.status,
      requestId,
      headers: response.headers,
      retryAfter,
    });
  }
  return errorFromStatus({
    code: error.code,
    message: typeof error.message === 'string' ? error.message : error.code,
    status: response.status,
    details: error.details ?? null,
    requestId,
    headers: response.headers,
    retryAfter,
  });
}

function invalidResponse(response: Response, text: string): TareError {
  return new TareError({
    code: 'invalid_response',
    message: `HTTP ${response.status} with a body that is not a JSON envelope: ${text.slice(0, 200)}`,
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    headers: response.headers,
  });
}

function parseJson(text: string): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function buildUrl(baseUrl: string, path: string, query: TransportRequest['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (typeof value === 'object') for (const item of value) params.append(name, item);
    else if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return `${baseUrl}/api/v1${path}${search ? `?${search}` : ''}`;
}
