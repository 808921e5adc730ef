import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.js';
import { requestLogger } from './request-logger.js';

function capture(level: string) {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  return { logger, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('requestLogger', () => {
  it('when a request logs, then each line carries its bindings as a pino child would', () => {
    const { logger, entries } = capture('info');
    const log = requestLogger(logger, { reqId: 'req-1' }, {});
    log.info({ res: { statusCode: 200 } }, 'request completed');
    log.warn('slow');
    log.debug('not at info');
    expect(entries()).toMatchObject([
      { level: 30, reqId: 'req-1', msg: 'request completed', res: { statusCode: 200 } },
      { level: 40, reqId: 'req-1', msg: 'slow' },
    ]);
    expect(entries()).toHaveLength(2);
  });

  it('when the level is above everything the request logs, then no child is made', () => {
    const { logger, entries } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = requestLogger(logger, { reqId: 'req-1' }, {});
    log.info('incoming request');
    log.info('request completed');
    expect(child).not.toHaveBeenCalled();
    log.error({ err: new Error('boom') }, 'request failed');
    expect(child).toHaveBeenCalledTimes(1);
    expect(entries()).toMatchObject([{ level: 50, reqId: 'req-1', msg: 'request failed', err: { message: 'boom' } }]);
  });

  it('when bindings carry credentials, then they are redacted as in any child', () => {
    const { logger, entries } = capture('info');
    requestLogger(logger, { reqId: 'req-1', token: 'apik_secret' }, {}).info('x');
    expect(JSON.stringify(entries())).not.toContain('apik_secret');
  });

  it('when a route sets its own level, then that level applies', () => {
    const { logger, entries } = capture('info');
    const log = requestLogger(logger, { reqId: 'req-1' }, { level: 'silent' });
    log.error('hidden');
    expect(entries()).toHaveLength(0);
  });

  it('when the level is changed on the request logger, then only that request logs at it', () => {
    const { logger, entries } = capture('info');
    const log = requestLogger(logger, { reqId: 'req-1' }, {});
    log.level = 'debug';
    log.debug('details');
    logger.debug('not the parent');
    expect(entries()).toMatchObject([{ level: 20, reqId: 'req-1', msg: 'details' }]);
    expect(logger.level).toBe('info');
  });
});
