import { describe, expect, it } from 'vitest';
import { MASK, maskedParams, maskSecrets } from './mask.ts';

describe('masking secrets before they are logged', () => {
  it('masks every secret-named value, at any depth, and keeps the rest', () => {
    const masked = maskSecrets({
      username: 'admin', password: 'p', newPassword1: 'q', refresh_token: 'r', secretKey: 's', 'Captcha-Code': 'c', 'Blade-Auth': 'bearer x',
      accessKey: 'ak', nested: { list: [{ pwd: 'z', name: 'n' }] }, empty: { password: '' },
    });
    expect(masked).toEqual({
      username: 'admin', password: MASK, newPassword1: MASK, refresh_token: MASK, secretKey: MASK, 'Captcha-Code': MASK, 'Blade-Auth': MASK,
      accessKey: MASK, nested: { list: [{ pwd: MASK, name: 'n' }] }, empty: { password: '' },
    });
  });

  it('masks the password inside a connection URL, whatever the field is called', () => {
    expect(maskSecrets({ url: 'postgres://report:s3cr%40t@10.0.0.5:5432/cost', note: 'see https://example.com/a:b@c' })).toEqual({
      url: `postgres://report:${MASK}@10.0.0.5:5432/cost`,
      note: 'see https://example.com/a:b@c',
    });
    expect(maskSecrets(['postgresql://u@h/db'])).toEqual(['postgresql://u@h/db']);
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
