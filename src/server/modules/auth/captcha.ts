// Captchas: an image a person can read, its answer kept in the database (so any server process can
// check it), single use, valid for five minutes.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';

export const CAPTCHA_DDL = `
CREATE TABLE IF NOT EXISTS zs_captcha (key varchar(64) PRIMARY KEY, code varchar(16) NOT NULL, expires_at timestamptz NOT NULL);
`;

const TTL_SECONDS = 300;

export async function issueCaptcha(db: Queryable): Promise<{ key: string; image: string; code: string }> {
  // loaded on first use: it parses its font at import time
  const { default: svgCaptcha } = await import('svg-captcha');
  const captcha = svgCaptcha.create({
    size: 5,
    noise: 2,
    width: 130,
    height: 48,
    ignoreChars: '0oO1ilI',
    color: true,
    background: '#f4f6fb',
  });
  const key = randomUUID();
  await db.query(`DELETE FROM zs_captcha WHERE expires_at < now()`);
  await db.query(`INSERT INTO zs_captcha (key, code, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
    key,
    captcha.text.toLowerCase(),
    TTL_SECONDS,
  ]);
  return { key, image: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}`, code: captcha.text };
}

/** True when the code answers the captcha; the captcha is used up either way. */
export async function checkCaptcha(db: Queryable, key: string | undefined, code: string | undefined): Promise<boolean> {
  if (!key || !code) return false;
  const rows = await db.query<{ code: string }>(`DELETE FROM zs_captcha WHERE key = $1 AND expires_at >= now() RETURNING code`, [key]);
  return rows.length === 1 && rows[0].code === code.trim().toLowerCase();
}
