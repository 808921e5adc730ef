import path from 'node:path';
import { parseSecretKey, type SecretKey } from './secrets/secret-key.js';

/** Every setting Tare reads from the environment, validated once at start-up. */
export interface Config {
  /** PORT: TCP port to listen on (default 3000; 0 picks a free one). */
  port: number;
  /** HOST: interface to bind (default 127.0.0.1). */
  host: string;
  /** DATABASE_URL: PostgreSQL connection string; unset means the embedded PGlite store. */
  databaseUrl?: string;
  /**
   * TARE_SHARD_ROUTING: `off` (default), or `on`: on a Citus coordinator, an inventory write runs
   * on the worker that holds its shop's shard (Tare must reach the workers; docs/operations.md).
   */
  shardRouting: boolean;
  /** TARE_DATA_DIR: where PGlite keeps its files (default ./.tare). */
  dataDir: string;
  /**
   * TARE_PGLITE_SEED: `on` (default) makes a new PGlite data dir a copy of the cluster the build
   * made; `off` runs initdb instead (as before: peaks near 800 MB of memory).
   */
  pgliteSeed: boolean;
  /** REDIS_URL: shared rate-limit state for several instances; unset keeps it in memory. */
  redisUrl?: string;
  /** LOG_LEVEL: pino level (default info). */
  logLevel: string;
  /** LOG_FORMAT: `json` or `pretty`; unset means pretty on a terminal, JSON otherwise. */
  logFormat?: 'json' | 'pretty';
  /** TARE_BODY_LIMIT: largest accepted request body in bytes (default 1 MiB). */
  bodyLimit: number;
  /** TARE_PRODUCT_CACHE_SECONDS: server-side product cache lifetime, at most 300 (default 300). */
  productCacheSeconds: number;
  /** TARE_IDEMPOTENCY_RETENTION_HOURS: how long idempotency keys are remembered (default 24). */
  idempotencyRetentionHours: number;
  /** TARE_SANDBOX: `on` (default) serves the sandbox shop under /sandbox; `off` removes it. */
  sandbox: boolean;
  /** TARE_SANDBOX_DELIVERY: `orderly` (default), or `chaos`: each sandbox event twice, late, out of order. */
  sandboxDelivery: 'orderly' | 'chaos';
  /** TARE_RECONCILE_MINUTES: minutes between reconciliation runs (default 15; 0 turns it off). */
  reconcileMinutes: number;
  /**
   * TARE_SECRETS_KEY: the key that seals platform credentials at rest (32 bytes, base64 or hex).
   * Unset on the embedded store, a key file in the data dir is made on first use; on PostgreSQL
   * it is required before a shop can be connected (every instance must hold the same key).
   */
  secretsKey?: SecretKey;
  /** TARE_SECRETS_PREVIOUS_KEYS: earlier keys, comma-separated, still opening what they sealed until `tare platform rotate-key`. */
  previousSecretsKeys: SecretKey[];
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got '${raw}'.`);
  }
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[]): T {
  const raw = optional(env, name) ?? values[0]!;
  if (!values.includes(raw as T)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got '${raw}'.`);
  return raw as T;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

function secretsKeys(env: NodeJS.ProcessEnv): { current?: SecretKey; previous: SecretKey[] } {
  const raw = optional(env, 'TARE_SECRETS_KEY');
  const current = raw === undefined ? undefined : parseSecretKey(raw);
  if (typeof current === 'string') throw new ConfigError(`TARE_SECRETS_KEY ${current}.`);
  const previous = (optional(env, 'TARE_SECRETS_PREVIOUS_KEYS') ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean)
    .map((text, index) => {
      const key = parseSecretKey(text);
      // The key itself is never echoed back: only which entry is wrong.
      if (typeof key === 'string') throw new ConfigError(`TARE_SECRETS_PREVIOUS_KEYS entry ${index + 1} ${key}.`);
      return key;
    });
  return { current, previous };
}

/** Reads and validates the environment; throws ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = optional(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got '${logLevel}'.`);
  }
  const logFormat = optional(env, 'LOG_FORMAT');
  if (logFormat !== undefined && logFormat !== 'json' && logFormat !== 'pretty') {
    throw new ConfigError(`LOG_FORMAT must be json or pretty, got '${logFormat}'.`);
  }
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL must start with 'postgres://' or 'postgresql://'.");
  }
  const redisUrl = optional(env, 'REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError("REDIS_URL must start with 'redis://' or 'rediss://'.");
  }
  const secrets = secretsKeys(env);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: optional(env, 'HOST') ?? '127.0.0.1',
    databaseUrl,
    shardRouting: oneOf(env, 'TARE_SHARD_ROUTING', ['off', 'on'] as const) === 'on',
    dataDir: path.resolve(optional(env, 'TARE_DATA_DIR') ?? '.tare'),
    pgliteSeed: oneOf(env, 'TARE_PGLITE_SEED', ['on', 'off'] as const) === 'on',
    redisUrl,
    logLevel,
    logFormat,
    bodyLimit: integer(env, 'TARE_BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    productCacheSeconds: integer(env, 'TARE_PRODUCT_CACHE_SECONDS', 300, 0, 300),
    idempotencyRetentionHours: integer(env, 'TARE_IDEMPOTENCY_RETENTION_HOURS', 24, 1, 24 * 30),
    sandbox: oneOf(env, 'TARE_SANDBOX', ['on', 'off'] as const) === 'on',
    sandboxDelivery: oneOf(env, 'TARE_SANDBOX_DELIVERY', ['orderly', 'chaos'] as const),
    reconcileMinutes: integer(env, 'TARE_RECONCILE_MINUTES', 15, 0, 7 * 24 * 60),
    secretsKey: secrets.current,
    previousSecretsKeys: secrets.previous,
  };
}
