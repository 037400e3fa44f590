import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { REQUEST_LOG_SERIALIZERS } from './api-log.ts';
import { MASK, maskedJson, maskedParams, maskSecrets, maskUrlPasswords } from './mask.ts';
import { prng } from '../../../../tests/support/prng.ts';

describe('masking secrets before they are logged', () => {
  it('masks every secret-named value, at any depth, and keeps the rest', () => {
    const masked = maskSecrets({
      username: 'admin',
      password: 'p',
      newPassword1: 'q',
      refresh_token: 'r',
      secretKey: 's',
      'Captcha-Code': 'c',
      'Blade-Auth': 'bearer x',
      accessKey: 'ak',
      nested: { list: [{ pwd: 'z', name: 'n' }] },
      empty: { password: '' },
    });
    expect(masked).toEqual({
      username: 'admin',
      password: MASK,
      newPassword1: MASK,
      refresh_token: MASK,
      secretKey: MASK,
      'Captcha-Code': MASK,
      'Blade-Auth': MASK,
      accessKey: MASK,
      nested: { list: [{ pwd: MASK, name: 'n' }] },
      empty: { password: '' },
    });
  });

  it('masks the password inside a connection URL, whatever the field is called', () => {
    expect(maskSecrets({ url: 'postgres://report:s3cr%40t@10.0.0.5:5432/cost', note: 'see https://example.com/a:b@c' })).toEqual({
      url: `postgres://report:${MASK}@10.0.0.5:5432/cost`,
      note: 'see https://example.com/a:b@c',
    });
    expect(maskSecrets(['postgresql://u@h/db'])).toEqual(['postgresql://u@h/db']);
  });

  it('masks a secret-named query parameter of a URL (a JDBC URL, a link with a token)', () => {
    expect(maskSecrets({ url: 'jdbc:postgresql://h/db?user=reader&password=s3cret&ssl=false' })).toEqual({
      url: `jdbc:postgresql://h/db?user=reader&password=${MASK}&ssl=false`,
    });
    expect(maskUrlPasswords('see /export?blade-auth=bearer%20abc&id=1')).toBe(`see /export?blade-auth=${MASK}&id=1`);
    expect(maskUrlPasswords('a=b&c=d?password=')).toBe('a=b&c=d?password=');
  });

  it("masks a download's token sent as the query parameter blade-auth, in the API log and the request log", () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoiMSJ9.c2lnbmF0dXJl';
    expect(maskedParams({ 'blade-auth': `bearer ${token}`, account: 'admin' }, undefined, 1000)).toBe(
      `{"query":{"blade-auth":"${MASK}","account":"admin"}}`,
    );
    const logged = REQUEST_LOG_SERIALIZERS.req({
      method: 'GET',
      url: `/api/blade-system/user/export-user?blade-auth=bearer%20${token}&account=undefined`,
      host: 'localhost',
      ip: '127.0.0.1',
      socket: { remotePort: 50000 },
    } as unknown as FastifyRequest);
    expect(logged).toEqual({
      method: 'GET',
      url: `/api/blade-system/user/export-user?blade-auth=${MASK}&account=undefined`,
      host: 'localhost',
      remoteAddress: '127.0.0.1',
      remotePort: 50000,
    });
  });

  it('describes raw bodies by size and cuts long parameters', () => {
    expect(maskedParams({}, Buffer.from('abc'), 100)).toBe('{"body":"[3 bytes]"}');
    expect(maskedParams({ password: 'x' }, undefined, 100)).toBe('{"query":{"password":"******"}}');
    expect(maskedParams({}, undefined, 100)).toBeNull();
    const long = maskedParams({ text: 'x'.repeat(500) }, undefined, 50)!;
    expect(long).toHaveLength(50);
    expect(long.endsWith('…')).toBe(true);
  });
});

// Issue #18, hole 1: the mask runs on whatever an anonymous caller sends, after the answer but on
// the event loop. Its cost must be linear: the regular expression it replaces took 19 s for a
// 100 KB run of letters (every letter a scheme that might end at a "://" further on).
describe('masking costs time linear in the input', () => {
  /** The expression the scan replaces: the reference for what is masked (quadratic: short inputs only). */
  const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/gi;

  it('masks exactly what the regular expression masked (random texts of URL characters)', () => {
    const random = prng(18);
    // white space of every kind \s knows: ASCII, no-break, ideographic, line separator, BOM
    const pieces = [
      'a',
      'Z',
      '9',
      '+',
      '.',
      '-',
      ':',
      '/',
      '://',
      '?',
      '#',
      '@',
      ' ',
      '\t',
      '\n',
      '\u3000',
      '\u00a0',
      '\u2028',
      '\ufeff',
      'x',
      'pg',
      'postgres://',
      'u:p@',
      '@h',
    ];
    for (let n = 0; n < 30_000; n++) {
      let text = '';
      const length = Math.floor(random() * 16);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      expect(maskUrlPasswords(text), JSON.stringify(text)).toBe(text.replace(URL_PASSWORD, `$1${MASK}@`));
    }
  });

  it('with room, writes the start of the same answer, longer than room when the whole one is', () => {
    const random = prng(81);
    const pieces = ['a', ':', '/', '://', '@', ' ', 'x', 'postgres://', 'u:p@', 'u:pw@h ', 'b://c:d'];
    for (let n = 0; n < 30_000; n++) {
      let text = '';
      const length = Math.floor(random() * 14);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      const whole = maskUrlPasswords(text);
      const room = Math.floor(random() * 40);
      const start = maskUrlPasswords(text, room);
      expect({ text, room, start: start.slice(0, room), longer: start.length > room }).toEqual({
        text,
        room,
        start: whole.slice(0, room),
        longer: whole.length > room,
      });
    }
  });

  const MB = 1024 * 1024;
  /** The worst shapes for the former expression and for the scan, about 4 MB each. */
  const SHAPES: Record<string, string> = {
    letters: 'a'.repeat(4 * MB),
    'letters then ://': `${'a'.repeat(4 * MB)}://u:p@h`,
    'a scheme that never ends': `a://x:${'y'.repeat(4 * MB)}`,
    'a user that never ends': `a://${'u'.repeat(4 * MB)}`,
    'schemes without users': 'ab://'.repeat(800_000),
    'users without passwords': 'a://:'.repeat(800_000),
    'passwords without @': 'a://u:p'.repeat(600_000),
    'passwords with colons': `a://u:${'p:'.repeat(2 * MB)}`,
    'every one a match': 'a://u:p@'.repeat(500_000),
    'colons and at signs': 'a:@/'.repeat(MB),
    'query passwords': '&password=x'.repeat(400_000),
    'parameter names without values': `&${'a'.repeat(63)}`.repeat(65_000),
  };

  // The bound is the test's own timeout: far above what the scan takes on a loaded machine (tens of
  // milliseconds), far below the former expression's (hours for 4 MB of letters). No wall-clock
  // figure is asserted, so a loaded machine cannot fail it
  it.each(Object.entries(SHAPES))('%s: 4 MB masked whole, and logged', (shape, text) => {
    const masked = maskUrlPasswords(text);
    const params = maskedParams({ q: text }, { name: text, rows: [text, { url: text }] }, 8000);
    expect(params).toHaveLength(8000);
    if (shape === 'every one a match') expect(masked === `a://u:${MASK}@`.repeat(500_000)).toBe(true);
    if (shape === 'letters then ://') expect(masked.endsWith(`://u:${MASK}@h`)).toBe(true);
  });

  it('writes the same text as JSON.stringify of the masked copy, cut (the API log and the other logs)', () => {
    const reference = (query: unknown, body: unknown, limit: number) => {
      const parts: Record<string, unknown> = {};
      if (query && typeof query === 'object' && Object.keys(query).length) parts.query = maskSecrets(query);
      if (body !== undefined && body !== null)
        parts.body =
          typeof body === 'object' && !Buffer.isBuffer(body)
            ? maskSecrets(body)
            : `[${typeof body === 'string' ? body.length : Buffer.isBuffer(body) ? body.length : 0} bytes]`;
      if (!Object.keys(parts).length) return null;
      const text = JSON.stringify(parts);
      return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
    };
    const random = prng(8);
    const leaves = ['x', '', 'postgres://u:pw@h/db', '引号"\\\n', '😀😀', 1, -2.5, 0, true, false, null, undefined];
    const names = ['name', 'password', 'Blade-Auth', 'rows', 'url', '中文', 'a"b', '0', '1'];
    const make = (depth: number): unknown => {
      const r = random();
      if (depth > 10 || r < 0.4) return leaves[Math.floor(random() * leaves.length)];
      if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [names[Math.floor(random() * names.length)], make(depth + 1)]),
      );
    };
    for (let n = 0; n < 3_000; n++) {
      const query = random() < 0.5 ? { current: '1', token: 'x' } : {};
      const body = make(0);
      for (const limit of [5, 20, 37, 80, 8000]) {
        expect(maskedParams(query, body, limit), JSON.stringify({ query, body, limit })).toBe(reference(query, body, limit));
        if (body === undefined) continue;
        const whole = JSON.stringify(maskSecrets(body));
        expect(maskedJson(body, limit), JSON.stringify({ body, limit })).toBe(
          whole.length > limit ? `${whole.slice(0, limit - 1)}…` : whole,
        );
      }
    }
  });

  it('visits no more of a large body than the limit needs', () => {
    let reads = 0;
    const rows = new Proxy(
      Array.from({ length: 1_000_000 }, () => ({ name: 'x' })),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const text = maskedParams({}, { rows }, 8000)!;
    expect(text).toHaveLength(8000);
    expect(reads).toBeLessThan(1_000);
    reads = 0;
    expect(maskedJson({ rows }, 20_000)).toHaveLength(20_000);
    expect(reads).toBeLessThan(2_000);
  });
});
