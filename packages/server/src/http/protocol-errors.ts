import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, errors } from '../errors.js';
import { failureWithId } from './envelope.js';
import { closeLingering, isLingering } from './lingering-close.js';
import { newRequestId } from './request-id.js';
import type { RouteTable } from './route-table.js';

/** What Node passes to 'clientError': a parse error carries `reason` and the bytes it failed on. */
interface ClientError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: unknown;
}

/** `METHOD /path HTTP/1.x`: a method token, an origin-form target and the version. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\/[^\s?#]*)\S* HTTP\/1\.[01]\r?\n/;

/**
 * Answers a request that Node's HTTP parser rejects before Fastify sees it (a bare CR or LF in
 * a header, a header line without a colon, Content-Length with Transfer-Encoding, headers over
 * the size limit, an unknown method, a client too slow to send its headers) with the error
 * envelope and an `X-Request-Id`, like every other answer. Written straight to the socket, which
 * is then closed, lingering (lingering-close.ts): the parser cannot go on reading that connection.
 */
export function protocolErrorHandler(deps: { routes: RouteTable; logger: FastifyBaseLogger }) {
  return (error: ClientError, socket: Socket): void => {
    // The parser fails again on every piece of a refused request that still arrives, and on a
    // body cut short: the connection was answered already, or will be, and is closing.
    if (isLingering(socket) || refused.has(socket)) return;
    const answer = answerFor(error, deps.routes);
    if (!answer || !socket.writable) {
      socket.destroy();
      return;
    }
    refused.add(socket);
    const requestId = newRequestId();
    deps.logger.info(
      { reqId: requestId, code: error.code, reason: error.reason, statusCode: answer.status },
      'request rejected by the HTTP parser',
    );
    afterAnswersInFlight(socket, () => {
      socket.write(rawResponse(requestId, answer));
      closeLingering(socket);
    });
  };
}

/** Connections whose refused request is answered once the answers before it are sent. */
const refused = new WeakSet<Socket>();

/**
 * Runs `answer` once the connection's earlier, pipelined requests are answered. Node parses them
 * ahead of their answers, so the parser can refuse a request while an answer to an earlier one is
 * still to come: written at once, the refusal would arrive first and pass for that answer, which
 * would be lost. Answers go out in the order of the requests (RFC 9112, section 9.3.2). Node's
 * own 'finish' listener runs first and gives the socket the next queued answer, if any. A request
 * whose body the parser refused is answered by the refusal, unless its answer has begun: then,
 * as Node does, no second status line is spliced into it and the connection is cut.
 */
function afterAnswersInFlight(socket: Socket, answer: () => void): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable) return;
  if (!inFlight) return answer();
  if (inFlight.req.complete) {
    inFlight.once('finish', () => afterAnswersInFlight(socket, answer));
    return;
  }
  if (inFlight.headersSent) socket.destroy();
  else answer();
}

/** The answer to a client error, or undefined when the connection failed and nobody listens. */
function answerFor(error: ClientError, routes: RouteTable): AppError | undefined {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', `The request headers exceed ${maxHeaderSize} bytes.`, {
        limitBytes: maxHeaderSize,
      });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large', 'The chunk extensions of the request body are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request was not received in time.');
    case 'HPE_INVALID_METHOD': {
      // Route first, as for the methods Node knows (QUERY, PROPFIND): 405 with `Allow` on a
      // known path, 404 on an unknown one. Only an unreadable request line is a 400.
      const line = Buffer.isBuffer(error.rawPacket) ? REQUEST_LINE.exec(error.rawPacket.toString('latin1')) : null;
      if (line) return routes.miss(line[1]!, line[2]!);
      return malformed(error);
    }
  }
  return error.code?.startsWith('HPE_') ? malformed(error) : undefined;
}

function malformed(error: ClientError): AppError {
  return errors.badRequest('The request is not valid HTTP/1.1.', { reason: error.reason ?? null });
}

function rawResponse(requestId: string, answer: AppError): string {
  const body = JSON.stringify(failureWithId(requestId, answer));
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    ...answer.headers,
    date: new Date().toUTCString(),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${lines.join('')}\r\n${body}`;
}
