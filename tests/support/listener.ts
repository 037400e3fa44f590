// A TCP listener on a loopback address outside the server's allow-list (127.0.0.2: Linux routes all
// of 127/8 to the loopback interface, and the default allow-list is 127.0.0.1, ::1 and localhost)
// that counts the connections it receives. A test that the server refuses a host "before any
// connection is attempted" points the server at it and reads the count, instead of timing the refusal.
import { createServer, type Socket } from 'node:net';

export const OUTSIDE_HOST = '127.0.0.2';

export interface ConnectionCounter {
  port: number;
  /** Connections received so far. */
  connections: () => number;
  close: () => Promise<void>;
}

export async function countConnections(host = OUTSIDE_HOST): Promise<ConnectionCounter> {
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    received++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the listener has no TCP address');
  return {
    port: address.port,
    connections: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
