import type { Socket } from 'node:net';

/**
 * How long a connection closed under a client that is still sending keeps reading what it
 * sends. nginx's `lingering_timeout` is 5 s and Go's net/http waits 500 ms: long enough for a
 * client busy writing, even on a loaded machine, to turn round and read the answer.
 */
const LINGER_MS = 2_000;

/**
 * Closes the connection of an answer sent before its request body was read (413, 415, a body
 * the parser refused) without resetting it. Node closes such a connection as soon as the answer
 * is written; the body still arriving then meets a closed socket, the kernel answers with a
 * reset, and a client still writing (curl from a pipe, a browser uploading) reports "connection
 * reset" and never reads the answer. Instead the answer is followed by a FIN, and what the
 * client still sends is read and dropped until it closes its side or `LINGER_MS` pass: what
 * nginx calls a lingering close.
 */
export function lingerOnClose(socket: Socket): void {
  // Node's server calls `destroySoon` once the answer is written on a `Connection: close`
  // response: end the writing side now and the whole socket only when the client is done.
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
  };
}
