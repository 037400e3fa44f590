// `npm start`: the server on one port, the embedded database in DATA_DIR unless DATABASE_URL is set.
import { performance } from 'node:perf_hooks';
import { createApp } from './app.ts';
import { configFromEnv, limitsOf } from './config.ts';

const config = configFromEnv();
// since the process started: loading the code is part of the start too
const loaded = Math.round(performance.now());
try {
  const { app, close, startup } = await createApp(config, { onSeedProgress: seedProgressLine() });
  const address = await app.listen({ port: config.port, host: config.host });
  const database = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
  console.log(`Zhusuan: ${address.replace('127.0.0.1', 'localhost')} (${database})`);
  console.log(`Zhusuan: ready in ${Math.round(performance.now())} ms (code ${loaded}, ${startup})`);
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

/** A line at the first step and at every tenth of the first start's seed, which takes a while with the full demo. */
function seedProgressLine() {
  let shown = -1;
  return (done: number, total: number, file: string) => {
    const tenth = Math.floor((10 * done) / total);
    if (tenth === shown) return;
    shown = tenth;
    console.log(`Zhusuan: first start, seeding the database: ${tenth * 10} % (${file})`);
  };
}
