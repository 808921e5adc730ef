import { describe, expect, it } from 'vitest';
import { createLogger, logFormat } from './logger.js';

describe('logFormat', () => {
  it.each([
    [undefined, true, 'pretty'],
    [undefined, false, 'json'],
    [undefined, undefined, 'json'],
    ['json', true, 'json'],
    ['pretty', false, 'pretty'],
  ] as const)('when LOG_FORMAT is %s and stdout is a TTY: %s, then logs are %s', (configured, isTTY, expected) => {
    expect(logFormat({ logFormat: configured }, { isTTY })).toBe(expected);
  });
});

describe('createLogger', () => {
  function capture() {
    const lines: string[] = [];
    return { lines, destination: { write: (line: string) => void lines.push(line) } };
  }

  it('when pretty, then a request reads as two short lines with its id, method, path and status', () => {
    const out = capture();
    const logger = createLogger('info', out.destination, 'pretty');
    logger.info({ reqId: 'req-1', req: { method: 'GET', url: '/api/v1/products/1001' } }, 'incoming request');
    logger.info({ reqId: 'req-1', res: { statusCode: 200 }, responseTime: 3.14159 }, 'request completed');
    logger.warn({ applied: ['0001-init.sql'] }, 'migrations applied');

    expect(out.lines).toHaveLength(3);
    expect(out.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: req-1 → GET \/api\/v1\/products\/1001\n$/);
    expect(out.lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: req-1 ← 200 in 3\.1 ms\n$/);
    expect(out.lines[2]).toMatch(/WARN: migrations applied \{"applied":\["0001-init\.sql"\]\}\n$/);
  });

  it('when pretty, then credentials are redacted as in JSON', () => {
    const out = capture();
    createLogger('info', out.destination, 'pretty').info({ token: 'apik_secret' }, 'made a key');
    expect(out.lines.join('')).not.toContain('apik_secret');
    expect(out.lines.join('')).toContain('[redacted]');
  });

  it('when a Shopify connection or its credentials are logged, then the access token and client secret are redacted', () => {
    const out = capture();
    const logger = createLogger('info', out.destination);
    const connection = { store: 's.myshopify.com', accessToken: 'shpat_leak', clientSecret: 'shpss_leak' };
    logger.info({ accessToken: 'shpat_leak', clientSecret: 'shpss_leak' }, 'top level');
    logger.info({ connection }, 'one level down');
    logger.info({ shop: { connection } }, 'two levels down');
    const text = out.lines.join('');
    expect(text).not.toContain('_leak');
    expect(text).toContain('s.myshopify.com');
  });

  it('when json, then each entry is one JSON line', () => {
    const out = capture();
    createLogger('info', out.destination).info({ reqId: 'req-1', res: { statusCode: 200 } }, 'request completed');
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ level: 30, reqId: 'req-1', msg: 'request completed' });
  });
});
