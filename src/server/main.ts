// `npm start`: the server on one port, the embedded database in DATA_DIR unless DATABASE_URL is set.
import { performance } from 'node:perf_hooks';
import { createApp } from './app.ts';
import { configFromEnv, limitsOf } from './config.ts';

const started = performance.now();
const config = configFromEnv();
try {
  const { app, close } = await createApp(config);
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Zhusuan ready at ${address} (${config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`}, ${Math.round(performance.now() - started)} ms)`,
  );
  console.log(`Zhusuan: ${address.replace('127.0.0.1', 'localhost')}`);
  // Graceful stop: the port closes at once, requests in flight finish, event streams end, the API log
  // is flushed and the database closed; past the grace period the process exits anyway.
  const stop = async (signal: string) => {
    app.log.info(`${signal}: closing`);
    const grace = limitsOf(config).shutdownGraceMs;
    const timer = setTimeout(() => {
      console.error(`Zhusuan: still closing after ${grace} ms, exiting`);
      process.exit(1);
    }, grace);
    timer.unref();
    try {
      await close();
      process.exit(0);
    } catch (err) {
      console.error(`Zhusuan: close failed: ${(err as Error).message}`);
      process.exit(1);
    }
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
