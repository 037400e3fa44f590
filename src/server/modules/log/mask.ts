// Secrets never reach a log: values under names that carry passwords, tokens, keys or captcha
// answers are replaced before a request's parameters are kept.
export const MASK = '******';

/** Names whose values are secrets (password, newPassword1, refresh_token, secretKey, Captcha-Code, Blade-Auth, …). */
const SECRET_NAME = /pass(word)?|pwd|token|secret|captcha|authorization|blade-auth|credential|access[-_]?key|private[-_]?key|signature|cookie/i;

const MAX_DEPTH = 8;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A copy of `value` with every secret-named member masked (objects and arrays, to a bounded depth). */
/** The password of a URL's user part (postgres://user:password@host/db), wherever it stands in a text. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/gi;

export function maskSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(URL_PASSWORD, `$1${MASK}@`);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, isSecretName(k) && v !== '' && v != null ? MASK : maskSecrets(v, depth + 1)]),
  );
}

/** The request's query and body as one masked JSON text, cut to `limit` characters. */
export function maskedParams(query: unknown, body: unknown, limit: number): string | null {
  const parts: Record<string, unknown> = {};
  if (query && typeof query === 'object' && Object.keys(query).length) parts.query = maskSecrets(query);
  if (body !== undefined && body !== null) {
    // a raw body (an upload, a text) is described, never copied
    parts.body = typeof body === 'object' && !Buffer.isBuffer(body) ? maskSecrets(body) : `[${typeof body === 'string' ? body.length : Buffer.isBuffer(body) ? body.length : 0} bytes]`;
  }
  if (!Object.keys(parts).length) return null;
  const text = JSON.stringify(parts);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
