// Benchmark settings from the environment (BENCH_DURATION=5 npm run bench).

/** A positive number from the variable `name`, else `fallback`. */
export function num(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
