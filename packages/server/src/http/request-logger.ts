import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<Logger['info']>;

/**
 * A request's logger (Fastify's `request.log`): the pino child with the request's bindings
 * (`reqId`), made only when the request first logs at an enabled level. Pino serializes and
 * redacts a child's bindings when it is made, which was a cached read's largest cost after
 * the socket write; with LOG_LEVEL=info every request logs its two lines and gets its child as
 * before, at warn a request that logs nothing makes none. What is written is the same.
 */
class RequestLogger {
  #real: Logger | undefined;
  readonly #parent: Logger;
  readonly #bindings: Bindings;

  constructor(parent: Logger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #child(): Logger {
    return (this.#real ??= this.#parent.child(this.#bindings));
  }

  #log(level: Level, args: LogArgs): void {
    if (this.#real) return this.#real[level](...args);
    if (this.#parent.isLevelEnabled(level)) this.#child()[level](...args);
  }

  get level(): string {
    return (this.#real ?? this.#parent).level;
  }
  set level(level: string) {
    this.#child().level = level;
  }
  fatal(...args: LogArgs) {
    this.#log('fatal', args);
  }
  error(...args: LogArgs) {
    this.#log('error', args);
  }
  warn(...args: LogArgs) {
    this.#log('warn', args);
  }
  info(...args: LogArgs) {
    this.#log('info', args);
  }
  debug(...args: LogArgs) {
    this.#log('debug', args);
  }
  trace(...args: LogArgs) {
    this.#log('trace', args);
  }
  silent() {}
  isLevelEnabled(level: string): boolean {
    return (this.#real ?? this.#parent).isLevelEnabled(level);
  }
  bindings(): Bindings {
    return this.#child().bindings();
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.#child().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`. A route's own log level or serializers get a pino child at
 * once, as Fastify's default factory does.
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  for (const _ in options) return logger.child(bindings, options);
  return new RequestLogger(logger as Logger, bindings) as unknown as FastifyBaseLogger;
}
