// Speaking HTTP on a raw socket, for what a well-behaved client cannot send: a body that never
// comes, a request dribbled in, a header with a line break in it.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/**
 * Writes `request` (then, if given, keeps the socket open without writing more) and reads until the
 * server closes the connection or `timeoutMs` passes; the answer parsed, or null if none came.
 */
export function rawRequest(port: number, request: string, timeoutMs = 10_000): Promise<RawAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('utf8')));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err) => {
      // a reset after the answer was read still leaves the answer
      if (chunks.length === 0) reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks).toString('utf8')));
    });
    socket.write(request);
  });
}

function parse(text: string): RawAnswer | null {
  const match = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
  if (!match) return null;
  return { status: Number(match[1]), headers: match[2].toLowerCase(), body: match[3] };
}
