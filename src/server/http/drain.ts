// Draining on close (SIGTERM): Fastify stops accepting and Node's server.close() reaps the
// connections idle at that moment, but a keep-alive connection whose request was still running
// (or whose event stream was just ended) turns idle only later and would hold the close until
// its keep-alive timeout. So answers sent while closing say `connection: close`, and idle
// connections are reaped again until the server has closed.
import type { FastifyInstance } from 'fastify';

const REAP_EVERY_MS = 100;

export function registerDrain(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    if (!app.server.listening) return; // inject-only (tests): no connections
    const reaper = setInterval(() => app.server.closeIdleConnections(), REAP_EVERY_MS);
    reaper.unref();
    app.server.once('close', () => clearInterval(reaper));
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
