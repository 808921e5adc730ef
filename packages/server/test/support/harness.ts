import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/main.js';
import { createLocalGateway } from '../../src/platform/local/local-gateway.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { importCatalog } from '../../src/services/catalog-import/import-catalog.js';
import type { ImportShop } from '../../src/services/catalog-import/import-document.js';
import { validateImport } from '../../src/services/catalog-import/validate-import.js';
import type { Db } from '../../src/store/db.js';

/** A real server on port 0 over the given database, silent logs, no periodic reconciliation. */
export function startTestServer(db: Db, env: Record<string, string> = {}): Promise<RunningServer> {
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', TARE_RECONCILE_MINUTES: '0', ...env });
  return startServer({ config, logger: createLogger('silent'), db });
}

/** A shop fixture with a unique domain: one weight product with three variants, one location. */
export function shopFixture(overrides: Partial<ImportShop> = {}): ImportShop {
  return {
    domain: `shop-${randomUUID().slice(0, 8)}.example`,
    currency: 'USD',
    defaultLocale: 'en',
    addonActive: true,
    settings: { mergeMatchingLineItems: true },
    locations: [{ id: '70001', name: 'Main store' }],
    products: [
      {
        id: '1001',
        title: 'Coffee beans',
        measurementType: 'weight',
        variants: [
          variantFixture('2001', 'kg', 1),
          variantFixture('2002', 'g', 100),
          {
            ...variantFixture('2003', 'lb', 1),
            settings: {
              onlineStore: { displayStyle: 'dropdown', presets: [{ value: 0.5, label: 'Half' }, { value: 1 }] },
            },
          },
        ],
      },
      { id: '1002', title: 'Empty', measurementType: 'length', variants: [] },
    ],
    ...overrides,
  };
}

export function variantFixture(id: string, unit: string, value: number) {
  return {
    id,
    title: `Variant ${id}`,
    price: '24.00',
    unitMeasurement: { unit, value },
    settings: {
      onlineStore: {
        displayStyle: 'number' as const,
        rules: { min: 0.25, increment: 0.25, defaultValue: 1, max: null },
      },
    },
  };
}

/** Imports the shop (validated like `tare import`) and returns a fresh key for it. */
export async function seedShop(
  db: Db,
  shop: ImportShop = shopFixture(),
): Promise<{ domain: string; shopId: string; key: string; keyId: string }> {
  const checked = validateImport({ shops: [shop] });
  if (!checked.ok) throw new Error(`bad fixture: ${JSON.stringify(checked.issues)}`);
  const summary = await importCatalog({ db, gateway: createLocalGateway() }, checked.value);
  const created = await createApiKey(db, { shopDomain: shop.domain });
  return { domain: shop.domain, shopId: summary.shops[0]!.id, key: created.token, keyId: created.keyId };
}

/** fetch against the server with an optional key; returns status, headers and parsed body. */
export async function call(
  server: RunningServer,
  path: string,
  init: RequestInit & { key?: string } = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers = new Headers(init.headers);
  if (init.key !== undefined) headers.set('authorization', `Bearer ${init.key}`);
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Asserts the error envelope shape and returns the error object. */
export function expectErrorEnvelope(
  response: { status: number; headers: Headers; body: any },
  status: number,
  code: string,
): { code: string; message: string; details: any } {
  const { body } = response;
  if (response.status !== status || body?.success !== false || body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${JSON.stringify(body)}`);
  }
  if (
    body.data !== null ||
    typeof body.requestId !== 'string' ||
    body.requestId !== response.headers.get('x-request-id')
  ) {
    throw new Error(`bad envelope: ${JSON.stringify(body)}`);
  }
  return body.error;
}

/**
 * Like `call`, over node:http, for what fetch refuses: a body on GET or HEAD. `body` is sent
 * as is with its Content-Length; the answer has the same shape as `call`'s.
 */
export function rawCall(
  server: RunningServer,
  path: string,
  init: { method?: string; key?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const url = new URL(`${server.url}${path}`);
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? 'GET',
        headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: answerHeaders, body, text });
        });
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

/** An HTTP/1.1 answer read off a raw connection. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** Parses the bytes a raw connection read; the body as JSON when it says so. Undefined when not HTTP. */
export function parseRawAnswer(text: string): RawAnswer | undefined {
  const [head = '', body = ''] = text.split(/\r\n\r\n(.*)/s);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  if (!status) return undefined;
  const headers = new Headers();
  for (const line of lines) headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
  const json = headers.get('content-type')?.startsWith('application/json');
  return { status, headers, body: json ? JSON.parse(body) : body };
}
