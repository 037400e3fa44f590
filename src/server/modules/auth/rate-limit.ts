// Attempts per key (an address, an account) in a sliding window, counted in the database so that
// every server process on it shares the count. One statement per attempt: it counts the key's
// recent hits and records this one only while under the limit.
import { isIPv6 } from 'node:net';
import type { Queryable } from '../../db/db.ts';

export const RATE_LIMIT_DDL = `
CREATE TABLE IF NOT EXISTS zs_rate_hit (bucket varchar(40) NOT NULL, key varchar(300) NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE INDEX IF NOT EXISTS zs_rate_hit_key ON zs_rate_hit (bucket, key, at);
`;

/** Old hits are swept once every this many attempts of a process. */
const SWEEP_EVERY = 200;

export class RateLimiter {
  private attempts = 0;

  /** `bucket` names what is limited (login-address, captcha-address …); `limit` hits per `windowMs`. */
  constructor(
    private readonly db: Queryable,
    private readonly bucket: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records an attempt; false when the key has used up its attempts in the window. */
  async take(key: string): Promise<boolean> {
    if (++this.attempts % SWEEP_EVERY === 0) {
      await this.db.query(`DELETE FROM zs_rate_hit WHERE bucket = $1 AND at < clock_timestamp() - make_interval(secs => $2)`, [
        this.bucket,
        this.windowMs / 1000,
      ]);
    }
    const taken = await this.db.query(
      `INSERT INTO zs_rate_hit (bucket, key)
       SELECT $1::varchar, $2::varchar
        WHERE (SELECT count(*) FROM zs_rate_hit WHERE bucket = $1::varchar AND key = $2::varchar AND at > clock_timestamp() - make_interval(secs => $4)) < $3
       RETURNING 1`,
      [this.bucket, key.slice(0, 300), this.limit, this.windowMs / 1000],
    );
    return taken.length === 1;
  }

  /** Seconds until the key's oldest hit in the window expires (a hint for Retry-After). */
  async retryAfterSeconds(key: string): Promise<number> {
    const [row] = await this.db.query<{ seconds: number }>(
      `SELECT ceil(extract(epoch FROM min(at) + make_interval(secs => $3) - clock_timestamp()))::int AS seconds
         FROM zs_rate_hit WHERE bucket = $1 AND key = $2 AND at > clock_timestamp() - make_interval(secs => $3)`,
      [this.bucket, key.slice(0, 300), this.windowMs / 1000],
    );
    return Math.max(1, row?.seconds ?? 1);
  }
}

/**
 * The address attempts are counted by: an IPv4 address as it is (also when it arrives IPv4-mapped,
 * ::ffff:a.b.c.d), an IPv6 address by its /64 network, which one subscriber usually holds whole.
 */
export function clientAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip) || ip === '::1') return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
