// One load run with autocannon's programmatic API. Every answer of the measured run is checked:
// the body must equal the one fetched (and parsed and checked) before the run, since the data does
// not change during a benchmark. A different body counts as a mismatch.
import { createRequire } from 'node:module';

interface AutocannonHistogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  p99_9: number;
}

interface AutocannonResult {
  requests: AutocannonHistogram & { total: number; sent: number };
  latency: AutocannonHistogram;
  throughput: AutocannonHistogram;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  duration: number;
  '1xx': number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  expectBody?: string;
  timeout?: number;
  warmup?: { connections: number; duration: number };
}

type Autocannon = (opts: AutocannonOptions) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationS: number;
  warmupS: number;
  /** The exact body every answer must have. */
  expectBody: string;
}

export interface LoadResult {
  rps: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  statusCodes: Record<string, number>;
  durationS: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const r = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationS,
    headers: spec.headers,
    expectBody: spec.expectBody,
    timeout: 10,
    ...(spec.warmupS > 0 && { warmup: { connections: spec.connections, duration: spec.warmupS } }),
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = count;
  return {
    rps: r.requests.total / r.duration,
    total: r.requests.total,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    mean: r.latency.mean,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    mismatches: r.mismatches,
    statusCodes,
    durationS: r.duration,
  };
}
