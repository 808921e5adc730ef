import type { Socket } from 'node:net';

/**
 * How long a connection closed under a client that is still sending keeps reading what it
 * sends. nginx's `lingering_timeout` is 5 s and Go's net/http waits 500 ms: long enough for a
 * client busy writing, even on a loaded machine, to turn round and read the answer.
 */
const LINGER_MS = 2_000;

const lingering = new WeakSet<Socket>();

/**
 * Closes the connection of an answer sent before its request was read whole (413, 415, a
 * request the parser refused) without resetting it. Closed at once, the bytes still arriving
 * meet a closed socket, the kernel answers them with a reset, and a client still writing (curl
 * from a pipe, a browser uploading) reports "connection reset" and never reads the answer.
 * Instead the answer is followed by a FIN, and what the client still sends is read and dropped
 * until it closes its side or `LINGER_MS` pass: what nginx calls a lingering close.
 */
export function closeLingering(socket: Socket): void {
  lingering.add(socket);
  if (socket.writable) socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
}

/** Node's server calls `destroySoon` once a `Connection: close` answer is written: linger then. */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => closeLingering(socket);
}

/** Answered and closing: what still arrives is dropped, whatever the HTTP parser makes of it. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}
