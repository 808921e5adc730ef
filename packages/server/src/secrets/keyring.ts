import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config.js';
import { parseSecretKey, SecretKey } from './secret-key.js';

/** A secret Tare cannot seal or open for want of its key: the operator's to fix (exit 1, not a bug). */
export class SecretsKeyError extends ConfigError {}

/** The keys that seal and open platform credentials at rest. */
export interface Keyring {
  /** The key new values are sealed with; made on first use when a key file is allowed. */
  current(): SecretKey;
  /** The key with this id (the current one or a previous one), or undefined. */
  find(keyId: string): SecretKey | undefined;
}

export interface KeyringOptions {
  /** TARE_SECRETS_KEY. */
  current?: SecretKey;
  /** TARE_SECRETS_PREVIOUS_KEYS. */
  previous?: SecretKey[];
  /**
   * Where an embedded store keeps its key when TARE_SECRETS_KEY is unset (created on first use,
   * mode 0600). Undefined on PostgreSQL: instances sharing a store must share one key, which a
   * file per machine cannot promise.
   */
  keyFile?: string;
}

export const KEY_FILE_NAME = 'secrets.key';

/** The keyring of a process: its configuration and, on the embedded store, the data dir's key file. */
export function keyringFor(
  config: { secretsKey?: SecretKey; previousSecretsKeys: SecretKey[]; dataDir: string },
  driver: 'pglite' | 'postgres',
): Keyring {
  return createKeyring({
    current: config.secretsKey,
    previous: config.previousSecretsKeys,
    keyFile: driver === 'pglite' ? path.join(config.dataDir, KEY_FILE_NAME) : undefined,
  });
}

export function createKeyring(options: KeyringOptions): Keyring {
  const { keyFile } = options;
  let fileKey: SecretKey | undefined;
  const readFileKey = (): SecretKey | undefined => {
    if (fileKey || !keyFile || !existsSync(keyFile)) return fileKey;
    const parsed = parseSecretKey(readFileSync(keyFile, 'utf8'));
    if (typeof parsed === 'string') throw new SecretsKeyError(`the key file ${keyFile} ${parsed}`);
    return (fileKey = parsed);
  };
  return {
    current() {
      if (options.current) return options.current;
      if (!keyFile) {
        throw new SecretsKeyError(
          'TARE_SECRETS_KEY is not set: on PostgreSQL every instance must seal platform credentials with the same ' +
            'key, so set it (32 bytes, `openssl rand -base64 32`) on each of them',
        );
      }
      return readFileKey() ?? (fileKey = createKeyFile(keyFile));
    },
    find(keyId) {
      // The key file stays a previous key once TARE_SECRETS_KEY is set: rotating away from it
      // needs nothing but the new variable and `tare platform rotate-key`.
      const keys = [options.current, ...(options.previous ?? []), readFileKey()];
      return keys.find((key) => key?.id === keyId);
    },
  };
}

/**
 * Writes a new key to `file`, readable by its owner only. The key is written to a temporary file
 * first and linked into place, which fails when the file exists: a process that made the file
 * first (a CLI command, a second start) wins, and nobody ever reads a half-written key.
 */
function createKeyFile(file: string): SecretKey {
  mkdirSync(path.dirname(file), { recursive: true });
  const key = SecretKey.generate();
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${key.exportBase64()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const parsed = parseSecretKey(readFileSync(file, 'utf8'));
    if (typeof parsed === 'string') throw new SecretsKeyError(`the key file ${file} ${parsed}`);
    return parsed;
  } finally {
    unlinkSync(temporary);
  }
}
