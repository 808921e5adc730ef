import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { protocolErrorHandler } from './protocol-errors.js';
import { createRouteTable } from './route-table.js';

/**
 * Runs the handler on the server end of a real TCP connection, as Node's 'clientError' does,
 * and returns what the client end read before the connection closed. The errors here cannot
 * be provoked quickly through a running server (Node checks header timeouts every 30 s).
 */
async function clientErrorOn(
  error: Error & { code?: string },
  prepare: (socket: Socket) => void = () => {},
): Promise<string> {
  const onClientError = protocolErrorHandler({ routes: createRouteTable(), logger: createLogger('silent') });
  const server = createServer((socket) => {
    prepare(socket);
    onClientError(error, socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    return await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      const client = connect(port, '127.0.0.1');
      client.on('data', (chunk: Buffer) => chunks.push(chunk));
      client.on('error', () => {});
      client.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  } finally {
    server.close();
  }
}

describe('protocolErrorHandler', () => {
  it('when the client is too slow to send its request, then it is 408 request_timeout in the envelope', async () => {
    const answer = await clientErrorOn(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }));
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const requestId = /\r\nx-request-id: (req_[0-9a-f-]{36})\r\n/.exec(head!)?.[1];
    expect(JSON.parse(body!)).toEqual({
      success: false,
      data: null,
      error: { code: 'request_timeout', message: 'The request was not received in time.', details: null },
      meta: {},
      requestId,
    });
  });

  it('when the answer to the refused request itself has begun, then nothing is spliced into it', async () => {
    const parseError = Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_CHUNK_SIZE' });
    const answer = await clientErrorOn(parseError, (socket) => {
      const begun = { headersSent: true, req: { complete: false } } as unknown as ServerResponse;
      Object.assign(socket, { _httpMessage: begun });
    });
    expect(answer).toBe('');
  });

  it('when an answer to an earlier pipelined request is being written, then the 400 follows it once it is sent', async () => {
    const parseError = Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_HEADER_TOKEN' });
    const answer = await clientErrorOn(parseError, (socket) => {
      // What Node does for the earlier answer: its head went out, the rest follows, then 'finish'.
      const earlier = Object.assign(new EventEmitter(), { headersSent: true, req: { complete: true } });
      Object.assign(socket, { _httpMessage: earlier });
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n');
      setTimeout(() => {
        socket.write('ok');
        Object.assign(socket, { _httpMessage: null });
        earlier.emit('finish');
      }, 20);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('when the connection was reset by the client, then nothing is written and the socket is closed', async () => {
    expect(await clientErrorOn(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe('');
  });
});
