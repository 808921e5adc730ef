/**
 * A body refused before it is read (over the limit, a media type no route takes, a chunk the
 * parser refuses) is answered while the client may still be sending it. The client must read
 * that answer, not a connection reset: curl from a pipe, a browser uploading and a busy machine
 * all still write when it comes. Sent over node:net so that the test decides when the client
 * writes and when it reads.
 */
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer } from '../../src/main.js';
import { expectErrorEnvelope, parseRawAnswer, type RawAnswer, seedShop } from '../support/harness.js';

const LIMIT = 1024;
const CHUNK = Buffer.alloc(16 * 1024, ' ');

interface Exchange {
  /** What the client read, parsed when it is an HTTP answer. */
  answer?: RawAnswer;
  /** The socket's error, if the connection was reset under the client. */
  error?: NodeJS.ErrnoException;
  /** How many body bytes the client wrote in all. */
  sent: number;
}

/**
 * Opens a connection, writes `head` and then the body in 16 KiB pieces, `pieces` of them,
 * a few milliseconds apart, reading nothing meanwhile: the answer the server sends early waits in
 * the client's receive buffer, as it does for a client busy writing. Then reads what came back,
 * having ended the body (`finish`) or hung up in the middle of it, as curl does on a 413.
 */
function upload(
  server: RunningServer,
  head: string,
  pieces: number,
  frame: (chunk: Buffer) => Buffer,
  { finish = true } = {},
) {
  const { hostname, port } = new URL(server.url);
  return new Promise<Exchange>((resolve) => {
    const exchange: Exchange = { sent: 0 };
    const received: Buffer[] = [];
    const socket: Socket = connect(Number(port), hostname);
    socket.pause();
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error) => (exchange.error = error));
    socket.on('close', () => {
      exchange.answer = parseRawAnswer(Buffer.concat(received).toString('utf8'));
      resolve(exchange);
    });
    socket.once('connect', async () => {
      socket.write(head);
      for (let i = 0; i < pieces && !socket.destroyed; i++) {
        socket.write(frame(CHUNK));
        exchange.sent += CHUNK.length;
        await sleep(2);
      }
      if (socket.destroyed) return;
      socket.resume();
      socket.end(finish ? frame(Buffer.alloc(0)) : Buffer.alloc(0));
    });
  });
}

const chunked = (chunk: Buffer) =>
  Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
const plain = (chunk: Buffer) => chunk;

function requestHead(key: string, headers: string) {
  return (
    'POST /api/v1/inventory/adjustments HTTP/1.1\r\nHost: tare.test\r\n' +
    `Authorization: Bearer ${key}\r\nIdempotency-Key: ${randomUUID()}\r\n${headers}\r\n`
  );
}

describe('Bodies refused while the client still sends them', () => {
  let db: Db;
  let server: RunningServer;
  let key: string;
  const logs: string[] = [];

  beforeAll(async () => {
    db = await testDrivers()[0]!.create();
    const config = loadConfig({ PORT: '0', TARE_RECONCILE_MINUTES: '0', TARE_BODY_LIMIT: String(LIMIT) });
    const logger = createLogger('info', { write: (line: string) => void logs.push(line) });
    server = await startServer({ config, logger, db });
    key = (await seedShop(db)).key;
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it('when a chunked body passes the limit and the client goes on sending, then it reads 413, not a reset', async () => {
    const head = requestHead(key, 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n');
    const exchange = await upload(server, head, 40, chunked);
    expect(exchange.error).toBeUndefined();
    expect(exchange.sent).toBe(40 * CHUNK.length);
    expectErrorEnvelope(exchange.answer!, 413, 'payload_too_large');
    expect(exchange.answer!.headers.get('connection')).toBe('close');
  });

  it('when the client reads the 413 and hangs up mid-body, then the server takes it quietly', async () => {
    const head = requestHead(key, 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n');
    logs.length = 0;
    const exchange = await upload(server, head, 40, chunked, { finish: false });
    expect(exchange.error).toBeUndefined();
    expectErrorEnvelope(exchange.answer!, 413, 'payload_too_large');
    // One request, one answer: the cut body is not taken for a second, malformed request.
    const answered = logs.map((line) => JSON.parse(line)).filter((entry) => entry.res?.statusCode);
    expect(answered.map((entry) => entry.res.statusCode)).toEqual([413]);
    expect(logs.join('\n')).not.toContain('rejected by the HTTP parser');
  });

  it('when Content-Length is over the limit, then the body is refused unread and the client reads 413', async () => {
    const length = 40 * CHUNK.length;
    const head = requestHead(key, `Content-Type: application/json\r\nContent-Length: ${length}\r\n`);
    const exchange = await upload(server, head, 40, plain);
    expect(exchange.error).toBeUndefined();
    expectErrorEnvelope(exchange.answer!, 413, 'payload_too_large');
  });

  it('when a body of a media type no route takes is still arriving, then the client reads 415', async () => {
    const head = requestHead(key, 'Content-Type: text/csv\r\nTransfer-Encoding: chunked\r\n');
    const exchange = await upload(server, head, 40, chunked);
    expect(exchange.error).toBeUndefined();
    expectErrorEnvelope(exchange.answer!, 415, 'unsupported_media_type');
  });

  it('when an admin form passes the limit while it is still arriving, then the browser reads the 413 page', async () => {
    const head =
      'POST /admin/login HTTP/1.1\r\nHost: tare.test\r\n' +
      'Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n';
    const exchange = await upload(server, head, 40, chunked);
    expect(exchange.error).toBeUndefined();
    expect(exchange.answer?.status).toBe(413);
    expect(exchange.answer?.body).toContain('The form sent was too large.');
  });

  it('when a storefront cart body passes the limit while it is still arriving, then the page reads the cart 413', async () => {
    const head =
      'POST /sandbox/storefront/shop.example/cart/add.js HTTP/1.1\r\nHost: tare.test\r\n' +
      'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const exchange = await upload(server, head, 40, chunked);
    expect(exchange.error).toBeUndefined();
    expect(exchange.answer?.status).toBe(413);
    expect(exchange.answer?.body).toMatchObject({ status: 413, message: 'Bad Request' });
  });

  it('when a chunked body turns malformed while the client goes on sending, then it reads the parser 400', async () => {
    const head = requestHead(key, 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n');
    let pieces = 0;
    // A first piece under the limit, then a chunk size that is not hexadecimal: the parser refuses it.
    const breaking = (chunk: Buffer) => {
      pieces++;
      if (pieces === 1) return chunked(Buffer.from('{"changes":'));
      return pieces === 2 ? Buffer.from('zz\r\n') : chunked(chunk);
    };
    const exchange = await upload(server, head, 40, breaking);
    expect(exchange.error).toBeUndefined();
    expectErrorEnvelope(exchange.answer!, 400, 'bad_request');
    expect(exchange.answer!.body.error.message).toBe('The request is not valid HTTP/1.1.');
  });

  it('when the client never stops sending, then the server still closes the connection', async () => {
    const head = requestHead(key, 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n');
    // Far more pieces than the linger lets through: the server, not the client, ends it.
    const exchange = await upload(server, head, 100_000, chunked);
    expect(exchange.sent).toBeLessThan(100_000 * CHUNK.length);
    expect(exchange.error?.code).toMatch(/^(ECONNRESET|EPIPE)$/);
  });

  it('when an oversized body was refused, then the next request on a new connection is served', async () => {
    const res = await fetch(`${server.url}/api/v1/products/1001`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
  });
});
