import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/**
 * The key of an `Idempotency-Key` header: 1–255 printable ASCII characters; the quoted
 * structured-field form `"abc"` means `abc`. Undefined when the header is absent or invalid.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const quoted = /^"(.*)"$/.exec(header);
  const key = quoted ? quoted[1]! : header;
  return PRINTABLE_ASCII.test(key) ? key : undefined;
}

/** SHA-256 over method, route pattern and canonical body: what "the same request" means. */
export function requestFingerprint(method: string, route: string, body: unknown): Buffer {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${route}\n`)
    .update(canonicalJson(body ?? null))
    .digest();
}
