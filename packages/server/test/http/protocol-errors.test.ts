/**
 * Requests that Node's HTTP parser rejects before Fastify sees them: they get the error
 * envelope and an `X-Request-Id` too. Sent byte for byte over node:net, since no HTTP client
 * writes them.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import type { Db } from '../../src/store/db.js';
import { testDrivers } from '../support/databases.js';
import { expectErrorEnvelope, parseRawAnswer, type RawAnswer, startTestServer } from '../support/harness.js';

/** Writes `request` on a new connection; what the server sent until it closed it. */
function exchange(server: RunningServer, request: string | Buffer): Promise<Buffer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close while we still write (431): what it answered is already read.
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

/** Writes `request` on a new connection and reads the answer until the server closes it. */
async function sendRaw(server: RunningServer, request: string | Buffer): Promise<RawAnswer> {
  const text = (await exchange(server, request)).toString('utf8');
  const answer = parseRawAnswer(text);
  if (!answer) throw new Error(`no HTTP answer: ${JSON.stringify(text)}`);
  return answer;
}

/** The answers sent one after another on a connection, each cut at its Content-Length (bytes). */
function splitAnswers(bytes: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  for (let rest = bytes; rest.includes('\r\n\r\n');) {
    const headEnd = rest.indexOf('\r\n\r\n') + 4;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(rest.subarray(0, headEnd).toString('latin1'))?.[1] ?? 0);
    answers.push(parseRawAnswer(rest.subarray(0, headEnd + length).toString('utf8'))!);
    rest = rest.subarray(headEnd + length);
  }
  return answers;
}

/** The parser's 400: the envelope, its id in `X-Request-Id`, and the connection closed. */
function expectMalformed(answer: RawAnswer) {
  const error = expectErrorEnvelope(answer, 400, 'bad_request');
  expect(error).toEqual({
    code: 'bad_request',
    message: 'The request is not valid HTTP/1.1.',
    details: { reason: expect.any(String) },
  });
  expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-f-]{36}$/);
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(answer.headers.get('connection')).toBe('close');
}

const HOST = 'Host: tare.test\r\nConnection: close\r\n';

describe.each(testDrivers())('Requests the HTTP parser rejects, on $name', ({ create }) => {
  let db: Db;
  let server: RunningServer;

  beforeAll(async () => {
    db = await create();
    server = await startTestServer(db);
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  describe('happy', () => {
    it('when a well-formed request is sent over the raw connection, then it is answered as usual', async () => {
      const answer = await sendRaw(server, `GET /healthz HTTP/1.1\r\n${HOST}\r\n`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: true, data: { status: 'ok' } });
    });
  });

  describe('errors', () => {
    it.each([
      ['a bare CR inside a header value', `GET /healthz HTTP/1.1\r\n${HOST}X-Note: a\rb\r\n\r\n`],
      ['a header line ending in a bare LF', `GET /healthz HTTP/1.1\r\nX-Note: a\n${HOST}\r\n`],
      ['a header line without a colon', `GET /healthz HTTP/1.1\r\n${HOST}X-Note\r\n\r\n`],
      [
        'Content-Length together with Transfer-Encoding',
        `POST /api/v1/inventory/adjustments HTTP/1.1\r\n${HOST}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ],
      [
        'two different Content-Length headers',
        `POST /api/v1/inventory/adjustments HTTP/1.1\r\n${HOST}Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}`,
      ],
      ['a space inside the path', `GET /health z HTTP/1.1\r\n${HOST}\r\n`],
    ])('when a request has %s, then it is 400 bad_request in the envelope with an X-Request-Id', async (_, request) => {
      expectMalformed(await sendRaw(server, request));
    });

    it('when a refused request follows pipelined ones, then their answers come first, in order, then the 400', async () => {
      const wellFormed = 'GET /healthz HTTP/1.1\r\nHost: tare.test\r\n\r\n';
      const sent = await exchange(server, `${wellFormed}${wellFormed}GET /healthz HTTP/1.1\r\n${HOST}X-Note\r\n\r\n`);
      const answers = splitAnswers(sent);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 400]);
      expect(answers[0]!.body).toMatchObject({ success: true, data: { status: 'ok' } });
      expect(answers[1]!.body).toMatchObject({ success: true, data: { status: 'ok' } });
      expectMalformed(answers[2]!);
    });

    it('when the bytes are not HTTP at all (a TLS handshake), then it is 400 bad_request in the envelope', async () => {
      const clientHello = Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]);
      expectMalformed(await sendRaw(server, clientHello));
    });

    it('when the headers are over 16 KiB, then it is 431 headers_too_large in the envelope', async () => {
      const answer = await sendRaw(server, `GET /healthz HTTP/1.1\r\n${HOST}X-Pad: ${'a'.repeat(17_000)}\r\n\r\n`);
      expect(expectErrorEnvelope(answer, 431, 'headers_too_large')).toEqual({
        code: 'headers_too_large',
        message: 'The request headers exceed 16384 bytes.',
        details: { limitBytes: 16384 },
      });
      expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    });

    it.each([
      ['FOO', '/api/v1/app-settings'],
      ['FOO', '/api/v1/products/1001/variants/2001?x=1'],
      ['get', '/healthz'],
    ])(
      'when the method %s, unknown to the parser, is sent to the route %s, then it is 405 with Allow: GET, HEAD',
      async (method, target) => {
        const answer = await sendRaw(server, `${method} ${target} HTTP/1.1\r\n${HOST}\r\n`);
        expect(expectErrorEnvelope(answer, 405, 'method_not_allowed')).toEqual({
          code: 'method_not_allowed',
          message: `Method ${method} is not allowed here.`,
          details: { allowed: ['GET', 'HEAD'] },
        });
        expect(answer.headers.get('allow')).toBe('GET, HEAD');
      },
    );

    it('when a method unknown to the parser is sent to an unknown path, then it is 404 not_found', async () => {
      const answer = await sendRaw(server, `FOO /api/v1/nope?x=1 HTTP/1.1\r\n${HOST}\r\n`);
      expect(expectErrorEnvelope(answer, 404, 'not_found')).toEqual({
        code: 'not_found',
        message: 'No route FOO /api/v1/nope.',
        details: { method: 'FOO', path: '/api/v1/nope' },
      });
    });
  });

  describe('security', () => {
    it('when a malformed request carries an X-Request-Id, then a new one is used (its headers are not trusted)', async () => {
      const answer = await sendRaw(server, `GET /healthz HTTP/1.1\r\nX-Request-Id: mine\r\n${HOST}X-Note\r\n\r\n`);
      expectMalformed(answer);
      expect(answer.body.requestId).not.toBe('mine');
    });

    it('when malformed requests keep coming, then the server still answers well-formed ones', async () => {
      await Promise.all(
        Array.from({ length: 20 }, () => sendRaw(server, `GET /healthz HTTP/1.1\r\n${HOST}X-Note: a\rb\r\n\r\n`)),
      );
      const answer = await sendRaw(server, `GET /healthz HTTP/1.1\r\n${HOST}\r\n`);
      expect(answer.status).toBe(200);
    });
  });
});
