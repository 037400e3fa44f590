// Secrets never reach a log: values under names that carry passwords, tokens, keys or captcha
// answers are replaced before a request's parameters are kept, and so is the password of a URL
// (postgres://user:password@host, or a secret-named query parameter: ?user=x&password=y) wherever
// it stands in a text.
//
// This runs on every request that is logged, anonymous ones included, on whatever the caller sent,
// after the answer has left but on the same event loop: its cost must grow with the input's length
// and no faster (issue #18: a regular expression here took 19 s for a 100 KB string). So the URL
// password is found by a hand-written scan, and the parameters are written as JSON only up to the
// limit the log keeps: the rest of a large body is never walked.
export const MASK = '******';

/** Names whose values are secrets (password, newPassword1, refresh_token, secretKey, Captcha-Code, Blade-Auth, …). */
const SECRET_NAME =
  /pass(word)?|pwd|token|secret|captcha|authorization|blade-auth|credential|access[-_]?key|private[-_]?key|signature|cookie/i;

const MAX_DEPTH = 8;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A character of a URL scheme after its first: a-z A-Z 0-9 + . - */
function isSchemeChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/**
 * A URL's user part and password, each read from a given position (sticky) to the first white
 * space, / ? # @ (and : for the user part). One character class repeated, anchored: linear, and
 * several times quicker than a loop over the characters.
 */
const USER_RUN = /[^\s:/?#@]*/y;
const PASSWORD_RUN = /[^\s/?#@]*/y;

/**
 * `text` with the password of every `scheme://user:password@` replaced by the mask. The same
 * matches as /([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/gi, which is quadratic in the length
 * of a run of letters (each is a scheme that may end at "://" further on), found in one pass:
 * each "://" looks back over the letters before it and forward over the user part and password
 * after it, and neither stretch can reach past the next "://" (a "/" ends both).
 *
 * With `room`, only the start of the answer is wanted: it is written until it is longer than `room`
 * characters (its first `room` are those of the whole answer, and it is longer than `room` when the
 * whole one is), and the text past that is not read.
 */
export function maskUrlPasswords(text: string, room = Infinity): string {
  return maskSecretParameters(maskUserInfoPasswords(text, room));
}

/**
 * A query parameter of a URL: its separator, a name of up to 64 characters and its value. Linear:
 * at each position a separator, a bounded name and "=" are tried, and a value is read once.
 */
const PARAMETER = /([?&;])([\w.-]{1,64})=([^&;\s#]*)/g;

/** `text` with the value of every secret-named query parameter (`&password=…`) masked. */
function maskSecretParameters(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(PARAMETER, (whole, separator: string, name: string, value: string) =>
    value && isSecretName(name) ? `${separator}${name}=${MASK}` : whole,
  );
}

function maskUserInfoPasswords(text: string, room: number): string {
  let at = text.indexOf('://');
  if (at === -1) return text.length > room + 1 ? text.slice(0, room + 1) : text;
  const n = text.length;
  const out: string[] = [];
  let written = 0;
  // text before `from` is copied (or masked) already; a match never starts before it
  let from = 0;
  while (at !== -1) {
    // what lies before this "://" fills the room: nothing after it can show
    if (at - from > room - written) break;
    // a scheme: a letter, then letters, digits, + . - up to the "://"
    let hasScheme = false;
    for (let s = at - 1; s >= from && isSchemeChar(text.charCodeAt(s)); s--) {
      if (isLetter(text.charCodeAt(s))) {
        hasScheme = true;
        break;
      }
    }
    if (hasScheme) {
      // the user part runs to the first white space, : / ? # or @, and must end at ":"
      USER_RUN.lastIndex = at + 3;
      USER_RUN.test(text);
      const i = USER_RUN.lastIndex;
      if (i < n && text.charCodeAt(i) === 58) {
        // the password runs to the first white space, / ? # or @, and must be followed by "@"
        const start = i + 1;
        PASSWORD_RUN.lastIndex = start;
        PASSWORD_RUN.test(text);
        const j = PASSWORD_RUN.lastIndex;
        if (j > start && j < n && text.charCodeAt(j) === 64) {
          out.push(text.slice(from, start), MASK, '@');
          written += start - from + MASK.length + 1;
          from = j + 1;
          at = text.indexOf('://', from);
          continue;
        }
      }
    }
    at = text.indexOf('://', at + 1);
  }
  if (from === 0 && n <= room + 1) return text;
  // the rest holds no match before `at` (or none at all): copied as it is, as far as room needs
  out.push(n - from > room - written + 1 ? text.slice(from, from + Math.max(room - written, 0) + 1) : text.slice(from));
  return out.join('');
}

/** A copy of `value` with every secret-named member masked (objects and arrays, to a bounded depth). */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskUrlPasswords(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      isSecretName(k) && v !== '' && v != null ? MASK : maskSecrets(v, depth + 1),
    ]),
  );
}

/**
 * JSON text written up to a number of characters: once more than `limit` are written, the rest
 * is not produced (nor the values it would have come from visited).
 */
class BoundedText {
  private readonly pieces: string[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.length > this.limit;
  }

  write(piece: string) {
    if (this.full) return;
    this.pieces.push(piece);
    this.length += piece.length;
  }

  /**
   * A string as JSON.stringify writes it. Only the part that can reach the limit is escaped: two
   * characters more than room is left, so a cut through a surrogate pair falls past the limit.
   */
  writeString(text: string) {
    const room = this.room;
    this.write(JSON.stringify(text.length > room ? text.slice(0, room) : text));
  }

  /** How many characters of a string can still matter. */
  get room(): number {
    return Math.max(this.limit - this.length + 2, 0);
  }

  text(): string {
    return this.pieces.join('');
  }
}

/** Writes maskSecrets(value, depth) as JSON.stringify would, until `out` is full. */
function writeMasked(out: BoundedText, value: unknown, depth: number) {
  if (out.full) return;
  if (typeof value === 'string') return out.writeString(maskUrlPasswords(value, out.room));
  if (value === null || typeof value !== 'object') return out.write(JSON.stringify(value) ?? 'null');
  if (depth >= MAX_DEPTH) return out.writeString('…');
  if (Array.isArray(value)) {
    out.write('[');
    for (let i = 0; i < value.length && !out.full; i++) {
      if (i) out.write(',');
      const item: unknown = value[i];
      // what JSON.stringify writes null for in an array
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') out.write('null');
      else writeMasked(out, item, depth + 1);
    }
    return out.write(']');
  }
  out.write('{');
  let first = true;
  for (const key of Object.keys(value)) {
    if (out.full) break;
    const item: unknown = (value as Record<string, unknown>)[key];
    // members JSON.stringify leaves out
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (!first) out.write(',');
    first = false;
    out.writeString(key);
    out.write(':');
    if (isSecretName(key) && item !== '' && item !== null) out.writeString(MASK);
    else writeMasked(out, item, depth + 1);
  }
  out.write('}');
}

/**
 * JSON.stringify(maskSecrets(value)) cut to `limit` characters (the last of them "…" when cut),
 * written without masking or walking what lies past the cut: for the other logs' texts (a browser's
 * uploaded log, an audit event's detail), which their columns cut anyway.
 */
export function maskedJson(value: unknown, limit: number): string {
  const out = new BoundedText(limit);
  writeMasked(out, value, 0);
  const text = out.text();
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/**
 * The request's query and body as one masked JSON text, cut to `limit` characters: the text of
 * JSON.stringify({query: maskSecrets(query), body: maskSecrets(body)}) so cut, written without
 * walking what lies past the cut.
 */
export function maskedParams(query: unknown, body: unknown, limit: number): string | null {
  const hasQuery = !!query && typeof query === 'object' && Object.keys(query).length > 0;
  const hasBody = body !== undefined && body !== null;
  if (!hasQuery && !hasBody) return null;
  const out = new BoundedText(limit);
  out.write('{');
  if (hasQuery) {
    out.write('"query":');
    writeMasked(out, query, 0);
  }
  if (hasBody) {
    out.write(hasQuery ? ',"body":' : '"body":');
    // a raw body (an upload, a text) is described, never copied
    if (typeof body === 'object' && !Buffer.isBuffer(body)) writeMasked(out, body, 0);
    else out.writeString(`[${typeof body === 'string' ? body.length : Buffer.isBuffer(body) ? body.length : 0} bytes]`);
  }
  out.write('}');
  const text = out.text();
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
