// @vitest-environment happy-dom
import ky from 'ky';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttp } from './http.ts';

interface Seen {
  url: string;
  headers: Headers;
}

function fakeServer(status: number, body: unknown, contentType = 'application/json') {
  const seen: Seen[] = [];
  const fetch = vi.fn(async (input: Request) => {
    seen.push({ url: input.url, headers: input.headers });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': contentType } });
  });
  return { seen, base: ky.create({ fetch: fetch as unknown as typeof globalThis.fetch, prefixUrl: '' }) };
}

describe('the HTTP client', () => {
  const hooks = {
    token: vi.fn(() => 'tok'),
    lang: () => 'zh' as const,
    onUnauthorized: vi.fn(),
    notify: vi.fn(),
    unknownError: () => '未知错误',
  };
  beforeEach(() => {
    hooks.onUnauthorized.mockClear();
    hooks.notify.mockClear();
  });

  it('sends Basic client credentials, the bearer token and the language', async () => {
    const { seen, base } = fakeServer(200, { code: 200, success: true, data: { x: 1 }, msg: '操作成功' });
    const http = createHttp(hooks, base);
    expect(await http.get('http://h/api/a', { current: 1, empty: undefined })).toEqual({ x: 1 });
    expect(seen[0].headers.get('authorization')).toBe(`Basic ${btoa('saber:saber_secret')}`);
    expect(seen[0].headers.get('blade-auth')).toBe('bearer tok');
    expect(seen[0].headers.get('accept-language')).toBe('zh-CN');
    expect(seen[0].url).toBe('http://h/api/a?current=1');
  });

  it('leaves the token out when a call opts out', async () => {
    const { seen, base } = fakeServer(200, { key: 'k', image: 'i' });
    await createHttp(hooks, base).raw('get', 'http://h/api/captcha', { token: false });
    expect(seen[0].headers.get('blade-auth')).toBeNull();
    expect(seen[0].headers.get('authorization')).toMatch(/^Basic /);
  });

  it('a body code 401 logs out, even with HTTP 200', async () => {
    const { base } = fakeServer(200, { code: 401, success: false, msg: '请求未授权' });
    await expect(createHttp(hooks, base).get('http://h/api/a')).rejects.toMatchObject({ code: 401 });
    expect(hooks.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(hooks.notify).not.toHaveBeenCalled();
  });

  it('an HTTP 401 without a body code logs out', async () => {
    const { base } = fakeServer(401, { msg: 'x' });
    await expect(createHttp(hooks, base).get('http://h/api/a')).rejects.toMatchObject({ code: 401 });
    expect(hooks.onUnauthorized).toHaveBeenCalled();
  });

  it('uploads a file as multipart with the same credentials, and answers the link', async () => {
    const { seen, base } = fakeServer(200, { code: 200, success: true, data: { link: '/files/a.png', name: 'a.png' }, msg: '操作成功' });
    const body = new FormData();
    body.append('file', new File(['png'], 'a.png', { type: 'image/png' }));
    expect(await createHttp(hooks, base).upload('http://h/api/put-file', body)).toEqual({ link: '/files/a.png', name: 'a.png' });
    expect(seen[0].headers.get('blade-auth')).toBe('bearer tok');
    expect(seen[0].headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const refused = fakeServer(400, { code: 400, msg: '文件类型不允许' });
    await expect(createHttp(hooks, refused.base).upload('http://h/api/put-file', body)).rejects.toThrow('文件类型不允许');
    expect(hooks.notify).toHaveBeenLastCalledWith('文件类型不允许');
  });

  it('a silent call fails without a toast (the caller shows the failure, or nothing)', async () => {
    const http = createHttp(hooks, fakeServer(403, { code: 403, msg: '无权访问' }).base);
    await expect(http.get('http://h/api/user/options', { ids: '1' }, { silent: true })).rejects.toThrow('无权访问');
    await expect(http.post('http://h/api/x', {}, { silent: true })).rejects.toThrow('无权访问');
    expect(hooks.notify).not.toHaveBeenCalled();
  });

  it('any other failure shows msg, else error_description, else unknown error', async () => {
    await expect(
      createHttp(hooks, fakeServer(400, { code: 400, msg: '项目名称不能为空' }).base).post('http://h/api/s', {}),
    ).rejects.toThrow('项目名称不能为空');
    expect(hooks.notify).toHaveBeenLastCalledWith('项目名称不能为空');
    await expect(
      createHttp(hooks, fakeServer(400, { error: 'invalid_grant', error_description: '用户名或密码错误' }).base).raw(
        'post',
        'http://h/token',
      ),
    ).rejects.toThrow('用户名或密码错误');
    expect(hooks.notify).toHaveBeenLastCalledWith('用户名或密码错误');
    await expect(createHttp(hooks, fakeServer(500, 'oops', 'text/plain').base).get('http://h/api/a')).rejects.toThrow('未知错误');
    expect(hooks.notify).toHaveBeenLastCalledWith('未知错误');
  });

  it('treats 4xx/5xx as answers (the body is read) rather than network errors', async () => {
    const { base } = fakeServer(403, { code: 403, msg: '没有新增项目的权限' });
    await expect(createHttp(hooks, base).post('http://h/api/s', {})).rejects.toMatchObject({ code: 403, message: '没有新增项目的权限' });
  });
});
