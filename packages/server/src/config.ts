import path from 'node:path';

/** Every setting Tare reads from the environment, validated once at start-up. */
export interface Config {
  /** PORT: TCP port to listen on (default 3000; 0 picks a free one). */
  port: number;
  /** HOST: interface to bind (default 127.0.0.1). */
  host: string;
  /** DATABASE_URL: PostgreSQL connection string; unset means the embedded PGlite store. */
  databaseUrl?: string;
  /** TARE_DATA_DIR: where PGlite keeps its files (default ./.tare). */
  dataDir: string;
  /** REDIS_URL: shared rate-limit state for several instances; unset keeps it in memory. */
  redisUrl?: string;
  /** LOG_LEVEL: pino level (default info). */
  logLevel: string;
  /** TARE_BODY_LIMIT: largest accepted request body in bytes (default 1 MiB). */
  bodyLimit: number;
  /** TARE_PRODUCT_CACHE_SECONDS: server-side product cache lifetime, at most 300 (default 300). */
  productCacheSeconds: number;
  /** TARE_IDEMPOTENCY_RETENTION_HOURS: how long idempotency keys are remembered (default 24). */
  idempotencyRetentionHours: number;
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

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/** Reads and validates the environment; throws ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = optional(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got '${logLevel}'.`);
  }
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL must start with 'postgres://' or 'postgresql://'.");
  }
  const redisUrl = optional(env, 'REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError("REDIS_URL must start with 'redis://' or 'rediss://'.");
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: optional(env, 'HOST') ?? '127.0.0.1',
    databaseUrl,
    dataDir: path.resolve(optional(env, 'TARE_DATA_DIR') ?? '.tare'),
    redisUrl,
    logLevel,
    bodyLimit: integer(env, 'TARE_BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    productCacheSeconds: integer(env, 'TARE_PRODUCT_CACHE_SECONDS', 300, 0, 300),
    idempotencyRetentionHours: integer(env, 'TARE_IDEMPOTENCY_RETENTION_HOURS', 24, 1, 24 * 30),
  };
}
