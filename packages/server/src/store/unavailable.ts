/**
 * Whether an error means the database could not be reached or dropped the connection (as
 * opposed to a bug or a constraint): the request can be retried once the database is back.
 * Covers node-postgres's socket errors and pool timeout, and PostgreSQL's connection-exception
 * (08xxx), shutdown (57P01–57P03) and too-many-connections (53300) codes; the cause chain is
 * followed because drivers wrap the socket error.
 */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;

export function isStoreUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) {
      return true;
    }
    if (MESSAGES.test(e.message)) return true;
    if (e instanceof AggregateError && e.errors.some(isStoreUnavailable)) return true;
  }
  return false;
}
