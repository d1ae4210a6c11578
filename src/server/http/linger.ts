import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long and how much a refused body is still read after the answer (see lingerAfterAnswer). */
export interface LingerLimits {
  /** Bytes read and dropped at most. */
  bytes: number;
  /** The connection closes when the client sends nothing for this long. */
  idleMs: number;
  /** ...and in any case this long after the answer went out. */
  totalMs: number;
}

/**
 * A client at loopback speed sends a few MB between our 413 and reading it; 64 MiB is far
 * beyond that and costs only parsing. The times are nginx's (lingering_timeout 5 s,
 * lingering_time 30 s): a client descheduled on a busy machine must not look like one that stopped.
 */
export const DEFAULT_LINGER: LingerLimits = { bytes: 64 * 1024 * 1024, idleMs: 5_000, totalMs: 30_000 };

/**
 * Lingering close (RFC 9112 section 9.6) for a response sent before its request body was read
 * to the end (413 on a body without a length). Node would destroy the socket as soon as the
 * answer is written; the bytes the client is still sending then meet a closed socket, the
 * kernel answers them with RST, and a client still writing gets ECONNRESET on its write before
 * it has read the answer waiting in its receive buffer. Instead: the answer goes out, our side
 * is half-closed (FIN), the rest of the body is read and dropped until the client ends or goes
 * quiet, or a bound of bytes or time is passed; then the socket is destroyed.
 * Call it before the answer is written; a request already read whole is left alone.
 */
export function lingerAfterAnswer(request: IncomingMessage, limits: LingerLimits = DEFAULT_LINGER): void {
  const socket = request.socket as Socket & { destroySoon?: () => void };
  if (request.complete || socket.destroyed) return;
  // Node's HTTP server calls destroySoon() on a connection it will not reuse once the answer is written.
  socket.destroySoon = () => {
    let dropped = 0;
    let idle: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(idle);
      clearTimeout(total);
      request.off('data', onData);
      socket.destroy();
    };
    const total = setTimeout(stop, limits.totalMs);
    const wait = () => {
      clearTimeout(idle);
      idle = setTimeout(stop, limits.idleMs);
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > limits.bytes) stop();
      else wait();
    };
    socket.end();
    wait();
    // The body's bytes still reach the request (the HTTP parser stays on it until its end).
    request.on('data', onData);
    request.once('end', stop);
    socket.once('end', stop);
    socket.once('close', () => {
      clearTimeout(idle);
      clearTimeout(total);
    });
    request.resume();
  };
}
