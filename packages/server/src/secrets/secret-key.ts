import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

const KEY_BYTES = 32;
const IV_BYTES = 12; // the size GCM is specified for (NIST SP 800-38D)
const TAG_BYTES = 16;
/** Names the format of a sealed value, so another can follow without guessing. */
const FORMAT = 'v1';

/**
 * One AES-256-GCM key of the operator's. Its id is derived from the key itself (the first 16 hex
 * digits of its SHA-256), so a sealed value names the key that opens it without the operator
 * having to name keys, and the id tells nothing about the key. The bytes never leave this object:
 * printing, logging or serialising it shows only the id.
 */
export class SecretKey {
  readonly id: string;
  readonly #bytes: Buffer;

  constructor(bytes: Buffer) {
    if (bytes.length !== KEY_BYTES) throw new RangeError(`a secrets key is ${KEY_BYTES} bytes, got ${bytes.length}`);
    this.#bytes = Buffer.from(bytes);
    this.id = `k${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
  }

  static generate(): SecretKey {
    return new SecretKey(randomBytes(KEY_BYTES));
  }

  /**
   * Seals `plain` with a fresh random IV. `context` is bound as additional authenticated data:
   * a value opens only in the place it was sealed for (a shop's token cannot be copied into
   * another shop's row, or into the client-secret column, and still open).
   *
   * @example key.seal('shpat_…', 'shopify_connections:1:access_token') // 'v1:Base64…'
   */
  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#bytes, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Opens what `seal` made with this key and the same context; throws when it was not. */
  open(sealed: string, context: string): string {
    const [format, payload] = sealed.split(':', 2);
    const bytes = Buffer.from(payload ?? '', 'base64');
    if (format !== FORMAT || bytes.length < IV_BYTES + TAG_BYTES) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.#bytes, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** The key as the operator writes it (base64), for the key file only. */
  exportBase64(): string {
    return this.#bytes.toString('base64');
  }

  toJSON(): string {
    return `[secrets key ${this.id}]`;
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

/**
 * Reads a key as the operator gives it: 32 bytes in base64 (`openssl rand -base64 32`) or hex
 * (`openssl rand -hex 32`). Returns the problem as text when it is not one.
 */
export function parseSecretKey(text: string): SecretKey | string {
  const trimmed = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) bytes = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) bytes = Buffer.from(trimmed, 'base64');
  if (!bytes || bytes.length !== KEY_BYTES) {
    return `must be ${KEY_BYTES} bytes in base64 (44 characters, \`openssl rand -base64 32\`) or hex (64 characters, \`openssl rand -hex 32\`)`;
  }
  return new SecretKey(bytes);
}
