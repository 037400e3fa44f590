// The reference point for the benchmark: Fastify and a pg Pool(max 10) running the same two
// statements as the app's project list (see queries.ts), without auth, envelope, query parsing
// or value conversion. `DATABASE_URL=... PORT=... tsx tests/bench/bare-server.ts`
// GET /list?tenant=100001&current=1&size=10[&name_like=花园] -> {records, total}
import Fastify from 'fastify';
import pg from 'pg';
import { listStatements } from './queries.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => undefined);
const app = Fastify({ logger: false });

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

app.get('/list', async (request, reply) => {
  const query = request.query as Record<string, string | undefined>;
  const { count, page, offset } = listStatements({
    tenantId: query.tenant ?? '100001',
    current: positive(query.current, 1),
    size: Math.min(positive(query.size, 10), 500),
    nameLike: query.name_like || undefined,
  });
  try {
    const {
      rows: [{ total }],
    } = await pool.query(count.sql, count.params);
    const records = offset < total ? (await pool.query(page.sql, page.params)).rows : [];
    return { records, total };
  } catch (err) {
    reply.status(500);
    return { error: (err as Error).message };
  }
});

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

await pool.query('select 1');
const address = await app.listen({ port: Number(process.env.PORT ?? 8090), host: '127.0.0.1' });
console.log(`bare-server: ${address}`);
