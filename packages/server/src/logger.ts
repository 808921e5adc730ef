import pino, { type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT when set; otherwise readable lines for a person at a terminal, JSON for a collector. */
export function logFormat(config: { logFormat?: LogFormat }, stdout: { isTTY?: boolean }): LogFormat {
  return config.logFormat ?? (stdout.isTTY ? 'pretty' : 'json');
}

/** Logs with credentials redacted wherever they may appear: JSON lines, or readable ones. */
export function createLogger(level: string, destination?: pino.DestinationStream, format: LogFormat = 'json'): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.body.key',
        'headers.authorization',
        'token',
        'secret',
        '*.token',
        '*.secret',
        // Platform credentials (a Shopify connection, or what connects one), wherever an object
        // carrying them is logged, up to two levels down.
        'accessToken',
        'clientSecret',
        '*.accessToken',
        '*.clientSecret',
        '*.*.accessToken',
        '*.*.clientSecret',
      ],
      censor: '[redacted]',
    },
  };
  if (format === 'json') return pino(options, destination);
  // Colours only on stdout, and only where it shows them (pino-pretty's own check).
  if (!destination) return pino(options, prettyDestination(pino.destination({ dest: 1, sync: true }), {}));
  return pino(options, prettyDestination(destination, { colorize: false }));
}

/**
 * One short line per log entry, formatted in-process and written synchronously (a line logged
 * just before exit is not lost). Requests read `req-1 → GET /api/v1/products/1001` and
 * `req-1 ← 200 in 3.1 ms`.
 */
function prettyDestination(out: pino.DestinationStream, colors: { colorize?: boolean }): pino.DestinationStream {
  const format = prettyFactory({
    ...colors,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: (log, messageKey) => {
      const req = log.req as { method?: string; url?: string } | undefined;
      const res = log.res as { statusCode?: number } | undefined;
      const id = log.reqId ? `${String(log.reqId)} ` : '';
      const message = String(log[messageKey] ?? '');
      if (message === 'incoming request' && req) return `${id}→ ${req.method} ${req.url}`;
      if (message === 'request completed' && res && typeof log.responseTime === 'number') {
        return `${id}← ${res.statusCode} in ${log.responseTime.toFixed(1)} ms`;
      }
      return `${id}${message}${req ? ` (${req.method} ${req.url})` : ''}`;
    },
  });
  return { write: (line: string) => out.write(format(line)) };
}
