import pino, { type Logger } from 'pino';

/** JSON logs with credentials redacted wherever they may appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
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
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
