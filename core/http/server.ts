import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

/** The status and message of a request node's HTTP parser refused (node's error codes, llhttp's `HPE_*`). */
function classify(err: NodeJS.ErrnoException): { status: number; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'the request line or headers are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'the request was not received in time' };
    default:
      return { status: 400, message: `malformed HTTP request (${err.code ?? 'parse error'})` };
  }
}

/**
 * Answers requests node's HTTP parser refuses (malformed framing, a request
 * line or headers over `maxHeaderSize`) with the spec's error body, where
 * node would write a bodiless `400 Bad Request` or `431`, and logs them as one
 * JSON line (never the request's bytes: they may hold credentials).
 * Returns the server.
 */
export function answerClientErrors(server: Server, log: Logger): Server {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, message } = classify(err);
    const body = JSON.stringify({ error: message, statusCode: status });
    log.debug({ code: err.code, status }, 'malformed request refused');
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
