import { createAdminApiClient } from '@shopify/admin-api-client';
import { PlatformUnavailableError } from '../gateway.js';
import type { ShopifyConnection } from './connection.js';

/**
 * What a call cost in Shopify's query points and what is left in the bucket.
 * https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits (extensions.cost)
 */
export interface ShopifyQueryCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

export interface ShopifyAdmin {
  /** Sends one GraphQL document; throws the errors below instead of returning partial answers. */
  request<T>(document: string, variables?: Record<string, unknown>): Promise<{ data: T; cost?: ShopifyQueryCost }>;
}

/**
 * Shopify refused the call for lack of query points (HTTP 200 with `THROTTLED`): it may be sent
 * again once the bucket has refilled, after `retryAfterMs`.
 */
export class ShopifyThrottledError extends PlatformUnavailableError {
  declare readonly retryAfterMs: number;
  constructor(retryAfterMs: number) {
    super(`Shopify throttled the request; retry in ${retryAfterMs} ms.`, { retryAfterMs });
    this.name = 'ShopifyThrottledError';
  }
}

/**
 * Shopify could not be reached or answered 429 or 5xx: the call may be sent again later, after
 * `retryAfterMs` when Shopify said (Retry-After).
 */
export class ShopifyUnavailableError extends PlatformUnavailableError {
  constructor(
    message: string,
    readonly status?: number,
    retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(message, { ...options, retryAfterMs });
    this.name = 'ShopifyUnavailableError';
  }
}

/** The access token was refused (revoked, app uninstalled) or lacks a scope: the shop's sync must stop. */
export class ShopifyUnauthorizedError extends PlatformUnavailableError {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ShopifyUnauthorizedError';
  }
}

/** Shopify rejected the call itself (GraphQL errors or userErrors): sending it again will not help. */
export class ShopifyRequestError extends Error {
  constructor(
    message: string,
    readonly details: { status?: number; errors?: unknown[] } = {},
  ) {
    super(message);
    this.name = 'ShopifyRequestError';
  }
}

/** Used when a throttled answer carries no cost to compute the wait from (one second of refill). */
const DEFAULT_THROTTLE_WAIT_MS = 1000;
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A client for one shop's Admin GraphQL API at `connection.endpoint` (Shopify's own URL, or a
 * proxy or test double). The library never retries (`retries: 0`) and never logs (its logger
 * would be handed the request headers, token included): every failure reaches the caller as one
 * of the typed errors above, and the projection outbox decides when to try again.
 */
export function createShopifyAdmin(
  connection: Pick<ShopifyConnection, 'store' | 'apiVersion' | 'accessToken' | 'endpoint'>,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): ShopifyAdmin {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = createAdminApiClient({
    storeDomain: connection.store,
    apiVersion: connection.apiVersion,
    accessToken: connection.accessToken,
    retries: 0,
    // The library builds Shopify's URL from the store; `adminApiUrl` may name another endpoint.
    // The library keeps only a failure's message: the reason goes into it.
    customFetchApi: (_url, init) =>
      send(connection.endpoint, { ...init, signal: AbortSignal.timeout(timeoutMs) }).catch((error: unknown) => {
        throw new Error(unreachable(error), { cause: error });
      }),
    logger: () => {},
  });
  return {
    async request<T>(document: string, variables?: Record<string, unknown>) {
      let response: Response;
      try {
        response = await client.fetch(document, variables ? { variables } : undefined);
      } catch (error) {
        throw new ShopifyUnavailableError(`Shopify could not be reached: ${messageOf(error)}`, undefined, undefined, {
          cause: error,
        });
      }
      return readAnswer<T>(response);
    },
  };
}

async function readAnswer<T>(response: Response): Promise<{ data: T; cost?: ShopifyQueryCost }> {
  const { status } = response;
  if (status === 401 || status === 403) {
    throw new ShopifyUnauthorizedError(`Shopify refused the access token (HTTP ${status}).`, status);
  }
  if (status === 429 || status >= 500) {
    throw new ShopifyUnavailableError(`Shopify answered HTTP ${status}.`, status, retryAfterMs(response));
  }
  let body: GraphQLAnswer;
  try {
    body = (await response.json()) as GraphQLAnswer;
  } catch (error) {
    // A proxy's error page, or a connection cut mid-answer.
    throw new ShopifyUnavailableError(`Shopify's answer (HTTP ${status}) was not JSON.`, status, undefined, {
      cause: error,
    });
  }
  if (status < 200 || status >= 300) {
    throw new ShopifyRequestError(`Shopify answered HTTP ${status}: ${messages(body.errors)}`, {
      status,
      errors: asList(body.errors),
    });
  }
  const cost = body.extensions?.cost;
  const errors = asList(body.errors);
  if (errors.length) throw classify(errors, cost);
  if (body.data === undefined || body.data === null) {
    throw new ShopifyRequestError('Shopify answered without data.', { status });
  }
  return { data: body.data as T, cost };
}

interface GraphQLError {
  message?: string;
  extensions?: { code?: string };
}

interface GraphQLAnswer {
  data?: unknown;
  errors?: unknown;
  extensions?: { cost?: ShopifyQueryCost };
}

/** https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits (THROTTLED at HTTP 200, cost.throttleStatus) */
function classify(errors: GraphQLError[], cost: ShopifyQueryCost | undefined): Error {
  const codes = new Set(errors.map((e) => e.extensions?.code));
  if (codes.has('THROTTLED')) return new ShopifyThrottledError(throttleWait(cost));
  if (codes.has('ACCESS_DENIED')) {
    return new ShopifyUnauthorizedError(`Shopify denied access: ${messages(errors)}`);
  }
  if (codes.has('INTERNAL_SERVER_ERROR')) {
    return new ShopifyUnavailableError(`Shopify failed internally: ${messages(errors)}`, 200);
  }
  return new ShopifyRequestError(`Shopify rejected the request: ${messages(errors)}`, { status: 200, errors });
}

/** Time for the bucket to refill to the points the call asked for: (needed − available) / restore rate. */
function throttleWait(cost: ShopifyQueryCost | undefined): number {
  const status = cost?.throttleStatus;
  if (!cost || !status || !(status.restoreRate > 0)) return DEFAULT_THROTTLE_WAIT_MS;
  const missing = cost.requestedQueryCost - status.currentlyAvailable;
  return Math.max(0, Math.ceil((missing / status.restoreRate) * 1000));
}

/** `Retry-After` in seconds (Shopify's form), as milliseconds; undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
}

function asList(errors: unknown): GraphQLError[] {
  if (Array.isArray(errors)) return errors as GraphQLError[];
  // Shopify answers some HTTP errors with `{ "errors": "text" }`.
  return errors === undefined || errors === null ? [] : [{ message: String(errors) }];
}

function messages(errors: unknown): string {
  const list = asList(errors);
  return list.length ? list.map((e) => e.message ?? 'unknown error').join('; ') : 'no details';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why a request got no answer, as the operator can act on it: fetch only says "fetch failed" and
 * keeps the reason (ECONNREFUSED, ENOTFOUND, a certificate) in its cause.
 */
function unreachable(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'no answer in time';
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const reason = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return reason ? `${error.message} (${reason})` : error.message;
}
