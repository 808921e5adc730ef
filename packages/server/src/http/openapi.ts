import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ERROR_STATUS, EXAMPLE_REQUEST_ID, ErrorBody, ErrorEnvelope, type ErrorCode } from '@tare/contracts';
import type { FastifyInstance, FastifySchema } from 'fastify';
import pkg from '../../package.json' with { type: 'json' };
import { WEB_DIR } from '../admin/render.js';

/** What a route adds to the OpenAPI document beyond its schema (documentation only). */
export interface RouteDoc {
  tag: Tag;
  operationId: string;
  summary: string;
  description?: string;
  /** Error statuses besides 401, 429, 431, 500 and 503, which every API route can answer. */
  errors: readonly ErrorStatus[];
  /** `Idempotency-Key` request header: required (inventory writes) or honoured when sent. */
  idempotencyKey?: 'required' | 'optional';
  /** The 200 body schema when the route does not declare it (its answer is serialized by hand). */
  ok?: object;
  /** Headers of the 200 answer beyond the common ones. */
  okHeaders?: Record<string, HeaderDoc>;
  /** Other non-error answers, e.g. 304. */
  extra?: Record<string, object>;
  /** The success status when it is not 200: 201 for an operation that creates something. */
  okStatus?: 201;
  /**
   * OpenAPI links of the success answer (200, or `okStatus`), by name: which of its values feed another operation, so
   * that clients and stateful fuzzers (Schemathesis) chain real ids instead of guessing them.
   */
  links?: Record<string, LinkDoc>;
}

/** An OpenAPI Link Object: values are runtime expressions such as `$response.body#/data/id`. */
export interface LinkDoc {
  operationId: string;
  description: string;
  /** Target parameter name (or `path.name`, `query.name`, `header.name`) → expression. */
  parameters?: Record<string, string>;
  /** The target's body; string values that are runtime expressions are replaced by their value. */
  requestBody?: unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * OpenAPI-only documentation of an API route. Kept out of `schema` on purpose: Fastify would
     * validate headers and serialize error bodies with those schemas, changing what is sent.
     */
    openapi?: RouteDoc;
  }
}

type Tag = 'App settings' | 'Products' | 'Variants' | 'Units' | 'Inventory' | 'Orders' | 'Scale labels' | 'Sandbox';
type ErrorStatus = (typeof ERROR_STATUS)[keyof typeof ERROR_STATUS];
interface HeaderDoc {
  description: string;
  type: 'string' | 'integer';
}

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const DOCS_PATH = '/docs';

const TAGS: { name: Tag; description: string }[] = [
  { name: 'App settings', description: 'Localized labels and storefront settings of the shop.' },
  { name: 'Products', description: 'Products with their measured variants, paginated.' },
  { name: 'Variants', description: 'One variant with its parent product.' },
  { name: 'Inventory', description: 'Exact fractional inventory: levels and their ledger, and idempotent writes.' },
  { name: 'Orders', description: 'Service-managed line items of an order, and their edits.' },
  { name: 'Units', description: 'Every unit with its exact factor and UN/ECE Recommendation 20 code.' },
  { name: 'Scale labels', description: 'EAN-13 labels of in-store scales, read into a variant and its measurement.' },
  {
    name: 'Sandbox',
    description:
      'The embedded platform as a working shop, under /sandbox (off with TARE_SANDBOX=off): carts, checkout, ' +
      'and the merchant’s order and stock actions, whose events reach Tare asynchronously.',
  },
];

const STATUS_TEXT: Record<ErrorStatus, string> = {
  400: 'Bad request: validation failed (`details.errors` lists `{ path, message }`, `details.in` says where), malformed JSON or a bad URL.',
  401: 'Missing, malformed, unknown, revoked or expired API key.',
  404: 'Not found for this shop (`details` names what).',
  405: 'The path exists with other methods (listed in `Allow`).',
  408: 'The request was not received in time (answered by the HTTP server, not the operation).',
  409: 'A request with the same `Idempotency-Key` is still being processed.',
  413: 'The body is over the limit.',
  415: 'The body is not JSON.',
  422: '`idempotency_key_reused`, `addon_inactive` or `unprocessable` (PRODUCT.md §3).',
  429: 'Over the API key’s rate-limit budget.',
  431: 'The request headers are over the HTTP server’s limit (16 KiB by default).',
  500: 'A bug on our side; nothing internal is leaked. Quote the `requestId`.',
  503: '`platform_unavailable`: the platform did not accept the change, nothing was changed. `service_unavailable`: the database is unreachable. Retry; send a write again with the same key.',
};

const REQUEST_ID: HeaderDoc = { type: 'string', description: 'The request id, equal to `requestId` in the body.' };
const RATE_LIMIT_HEADERS: Record<string, HeaderDoc> = {
  RateLimit: {
    type: 'string',
    description: 'When the shop has rate limiting on: `limit=600, remaining=599, reset=1`.',
  },
  'RateLimit-Policy': { type: 'string', description: 'When the shop has rate limiting on: `600;w=60`.' },
};
const REPLAYED: HeaderDoc = {
  type: 'string',
  description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
};
const RETRY_AFTER: HeaderDoc = { type: 'integer', description: 'Seconds to wait before retrying.' };

/** One example answer per error code, shown under its status. */
const ERROR_EXAMPLES: Record<ErrorCode, { message: string; details: Record<string, unknown> | null }> = {
  bad_request: {
    message: 'The request body is invalid.',
    details: { in: 'body', errors: [{ path: '/adjustments/0/delta/unit', message: "unit 'm' is not a weight unit" }] },
  },
  unauthorized: { message: 'A valid API key is required.', details: null },
  not_found: { message: "No variant with id '2999' was found.", details: { variantId: '2999' } },
  method_not_allowed: { message: 'DELETE is not allowed here.', details: { allow: ['GET'] } },
  idempotency_key_in_use: { message: 'A request with this Idempotency-Key is still being processed.', details: null },
  payload_too_large: { message: 'The request body is larger than 1048576 bytes.', details: null },
  unsupported_media_type: { message: 'The request body must be application/json.', details: null },
  request_timeout: { message: 'The request was not received in time.', details: null },
  headers_too_large: { message: 'The request headers exceed 16384 bytes.', details: { limitBytes: 16384 } },
  idempotency_key_reused: {
    message: 'This Idempotency-Key was already used for a different request (method, path or body).',
    details: { idempotencyKey: 'nightly-2026-11-22-batch-3' },
  },
  addon_inactive: { message: "The shop's order-editing add-on is not active.", details: null },
  unprocessable: { message: 'Line item 9001 is fulfilled and cannot be edited.', details: { index: 0 } },
  rate_limited: { message: 'Rate limit exceeded; retry after 1 second.', details: null },
  internal_error: { message: 'An internal error occurred.', details: null },
  platform_unavailable: { message: 'The platform did not answer; nothing was changed.', details: null },
  service_unavailable: { message: 'The store is unavailable; nothing was changed.', details: null },
};

/**
 * What the server accepts (domain/idempotency-key.ts): 1–255 printable ASCII characters.
 * Examples are distinct per operation and several per operation: a fuzzer pairs the n-th key
 * example with the n-th body example, and one key sent with two different bodies (or to two
 * operations) is, correctly, 422 `idempotency_key_reused`.
 */
function idempotencyKeyHeader(operationId: string, use: 'required' | 'optional') {
  return {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    pattern: '^[\\x20-\\x7E]+$',
    examples: [1, 2, 3].map((n) => exampleKey(`${operationId}#${n}`)),
    description:
      use === 'required'
        ? 'Required. 1–255 printable ASCII characters (a UUID v4 is a good choice); a new key per operation, the same key on retries (kept 24 hours).'
        : 'Optional. When sent, the edit is idempotent: 1–255 printable ASCII characters (a UUID v4 is a good choice), the same key on retries.',
  };
}

/** A UUID-v4-shaped key derived from `seed`: stable across builds of the document, unique per seed. */
function exampleKey(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = (8 | (parseInt(hex[16]!, 16) & 3)).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The location of the demo shop (`tare demo`): no operation lists locations to link from. */
const DEMO_LOCATION_ID = '70001';

/**
 * Links from an answer holding a variant (`variant` is a JSON pointer expression to it) to the
 * inventory writes: one variant unit added, or the level set to one unit, at the demo location.
 */
export function inventoryLinks(variant: string): Record<string, LinkDoc> {
  const note = `At the demo shop's location ${DEMO_LOCATION_ID}; on your shop, use one of its locations.`;
  return {
    adjustInventory: {
      operationId: 'adjustInventory',
      description: `Add one unit measurement of this variant to its stock. ${note}`,
      requestBody: {
        locationId: DEMO_LOCATION_ID,
        adjustments: [{ variantId: `${variant}/id`, delta: `${variant}/unitMeasurement` }],
      },
    },
    setInventoryLevels: {
      operationId: 'setInventoryLevels',
      description: `Set this variant's stock to one unit measurement. ${note}`,
      requestBody: {
        locationId: DEMO_LOCATION_ID,
        levels: [{ variantId: `${variant}/id`, quantity: `${variant}/unitMeasurement` }],
      },
    },
  };
}

/** Statuses whose answers are stored and replayed under an `Idempotency-Key`. */
const REPLAYABLE = new Set(['200', '404', '422']);

function headersOf(headers: Record<string, HeaderDoc>) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, { type, description }]) => [name, { type, description }]),
  );
}

/** The error envelope with `error.code` narrowed to the codes of one status. */
function errorResponse(status: ErrorStatus, headers: Record<string, HeaderDoc>) {
  const codes = Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([code]) => code);
  return {
    ...ErrorEnvelope,
    properties: {
      ...ErrorEnvelope.properties,
      error: { ...ErrorBody, properties: { ...ErrorBody.properties, code: { type: 'string', enum: codes } } },
    },
    description: STATUS_TEXT[status],
    examples: codes.map((code) => ({
      success: false,
      data: null,
      error: { code, ...ERROR_EXAMPLES[code as ErrorCode] },
      meta: {},
      requestId: EXAMPLE_REQUEST_ID,
    })),
    headers: headersOf(headers),
  };
}

/** Turns a route's schema plus its `config.openapi` into the operation the document shows. */
export function documentRoute(schema: FastifySchema | undefined, doc: RouteDoc | undefined): FastifySchema {
  const base: FastifySchema = schema ?? {};
  if (!doc) return base;
  const write = doc.idempotencyKey !== undefined;
  const common = { 'X-Request-Id': REQUEST_ID, ...RATE_LIMIT_HEADERS };
  const headersFor = (status: string): Record<string, HeaderDoc> => ({
    ...common,
    ...(write && REPLAYABLE.has(status) ? { 'Idempotency-Replayed': REPLAYED } : {}),
    ...(status === '409' || status === '429' ? { 'Retry-After': RETRY_AFTER } : {}),
    ...(status === '401' ? { 'WWW-Authenticate': { type: 'string', description: '`Bearer`' } } : {}),
  });

  const declared = (base.response ?? {}) as Record<string, object>;
  const okStatus = String(doc.okStatus ?? 200);
  const ok = declared[okStatus] ?? doc.ok;
  const response: Record<string, object> = {
    [okStatus]: {
      ...(ok ?? {}),
      description: okStatus === '201' ? 'Created.' : 'Success.',
      headers: headersOf({ ...headersFor(okStatus), ...doc.okHeaders }),
    },
  };
  for (const [status, body] of Object.entries(doc.extra ?? {})) {
    response[status] = { ...body, headers: headersOf(common) };
  }
  const statuses = [...new Set<ErrorStatus>([...doc.errors, 401, 429, 431, 500, 503])].sort((a, b) => a - b);
  for (const status of statuses) response[status] = errorResponse(status, headersFor(String(status)));

  return {
    ...base,
    tags: [doc.tag],
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.idempotencyKey
      ? {
          headers: {
            type: 'object',
            properties: { 'Idempotency-Key': idempotencyKeyHeader(doc.operationId, doc.idempotencyKey) },
            required: doc.idempotencyKey === 'required' ? ['Idempotency-Key'] : [],
          },
        }
      : {}),
    response,
  };
}

/**
 * The OpenAPI 3.1 document, generated from the route schemas (registered before the routes so
 * that it sees them all), served at /api/v1/openapi.json, and a Swagger UI page at /docs whose
 * assets are served locally. Both are public: they sit outside the authenticated /api/v1 scope.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  // @fastify/swagger renders a route's `links` option under its 200 answer; the links are
  // declared with the rest of the route's documentation, in `config.openapi`.
  app.addHook('onRoute', (route) => {
    const links = route.config?.openapi?.links;
    if (links) route.links = { [String(route.config?.openapi?.okStatus ?? 200)]: links };
  });
  const options: FastifyDynamicSwaggerOptions = {
    mode: 'dynamic',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tare API',
        version: pkg.version,
        description:
          'Exact fractional inventory and measured line items for whole-unit e-commerce platforms. ' +
          'Every answer is the envelope `{ success, data, error, meta, requestId }`, with the request id ' +
          'in `X-Request-Id`: also 404 for an unknown path, 405 `method_not_allowed` (with `Allow`) for a ' +
          'method the path does not have, and the answers to requests that are not valid HTTP/1.1 ' +
          '(400 `bad_request`, 408 `request_timeout`, 431 `headers_too_large`). The path and method are ' +
          'checked before the body is read.',
      },
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key of one shop, `Authorization: Bearer apik_<keyId>_<secret>` (`keyId`: 16 lowercase ' +
              'base32 characters; secret: at least 32 base62 characters). `<keyId>:<secret>` is accepted too.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: ({ schema, url, route }) => ({ schema: documentRoute(schema, route.config?.openapi), url }),
  };
  await app.register(swagger, options);
  // Tare's name, icon and wordmark (linking the home page) instead of Swagger's.
  const asset = (name: string) => readFileSync(`${WEB_DIR}assets/${name}`);
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: { deepLinking: true, persistAuthorization: false },
    validatorUrl: false,
    logo: { type: 'image/svg+xml', content: asset('wordmark.svg'), href: '/', target: '_self' },
    theme: {
      title: 'Tare API documentation',
      favicon: [
        { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: asset('favicon.svg') },
      ],
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
