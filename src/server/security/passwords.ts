// Passwords. The platform's clients hash the password (md5, lower-case hex) before it leaves the
// browser; the server never sees the plain text at login and stores only a slow, salted scrypt hash
// of that value.
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** What the client sends for a typed password. */
export function clientHash(plain: string): string {
  return createHash('md5').update(plain, 'utf8').digest('hex');
}

export function isClientHash(value: string): boolean {
  return /^[0-9a-f]{32}$/.test(value);
}

export async function hashPassword(clientHashed: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(clientHashed, salt);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(clientHashed: string, stored: string): Promise<boolean> {
  const [scheme, , , , salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(clientHashed, Buffer.from(salt, 'base64'));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** sha256 of a random token, for storing refresh tokens without being able to replay them. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
