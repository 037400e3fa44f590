// One HTTP client with the platform's conventions: Basic client credentials on every call,
// `Blade-Auth: bearer <token>` unless a call opts out, credentials sent, a 10 s timeout, and
// statuses 200–500 treated as answers. A body code or status 401 logs the user out and goes to
// /login; any other code ≠ 200 shows the server's msg (else error_description, else "unknown
// error") and fails, except for whitelisted statuses, which fail silently.
import ky, { type KyInstance } from 'ky';
import { website } from '../app/website.ts';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface HttpHooks {
  token: () => string;
  /** The language the server answers in (messages, dictionary labels). */
  lang: () => 'zh' | 'en';
  /** 401: forget the session and go to the login page. */
  onUnauthorized: () => void;
  /** Shows an error toast. */
  notify: (message: string) => void;
  unknownError: () => string;
}

export interface CallOptions {
  searchParams?: Record<string, string | number | boolean | undefined | null>;
  json?: unknown;
  headers?: Record<string, string>;
  /** false: no Blade-Auth header (login, captcha). */
  token?: boolean;
  /** The caller shows failures itself (no toast). */
  silent?: boolean;
}

const basic = () => `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`;

function cleanParams(params: CallOptions['searchParams']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== null) out[k] = String(v);
  return out;
}

export function createHttp(hooks: HttpHooks, base: KyInstance = ky) {
  const client = base.extend({
    timeout: website.requestTimeoutMs,
    credentials: 'include',
    throwHttpErrors: false,
    retry: 0,
  });

  async function call(
    method: 'get' | 'post',
    url: string,
    options: CallOptions = {},
  ): Promise<{ status: number; body: any; response: Response }> {
    const headers: Record<string, string> = {
      Authorization: basic(),
      'Accept-Language': hooks.lang() === 'en' ? 'en' : 'zh-CN',
      ...options.headers,
    };
    const token = hooks.token();
    if (options.token !== false && token) headers[website.tokenHeader] = `bearer ${token}`;
    const response = await client(url, { method, headers, searchParams: cleanParams(options.searchParams), json: options.json });
    const type = response.headers.get('content-type') ?? '';
    const body = type.includes('json') ? await response.json().catch(() => null) : null;
    return { status: response.status, body, response };
  }

  /** The platform's failure rule over an answer; returns the body when it is a success. */
  function check(status: number, body: any, silent = false): any {
    const code = (body && typeof body === 'object' && typeof body.code === 'number' ? body.code : undefined) ?? status;
    if (code === 200) return body;
    const message = (body && (body.msg || body.error_description)) || hooks.unknownError();
    if ((website.statusWhiteList as readonly number[]).includes(code)) throw new ApiError(code, message, body);
    if (code === 401) {
      hooks.onUnauthorized();
      throw new ApiError(401, message, body);
    }
    if (!silent) hooks.notify(message);
    throw new ApiError(code, message, body);
  }

  return {
    /** An enveloped call: resolves with `data`. */
    async get<T = any>(url: string, searchParams?: CallOptions['searchParams'], options: CallOptions = {}): Promise<T> {
      const { status, body } = await call('get', url, { ...options, searchParams });
      return check(status, body, options.silent).data as T;
    },
    async post<T = any>(url: string, json?: unknown, options: CallOptions = {}): Promise<T> {
      const { status, body } = await call('post', url, { ...options, json });
      return check(status, body, options.silent).data as T;
    },
    /** A call whose answer is not enveloped (the token endpoint): the body as it is, after the same checks. */
    async raw<T = any>(method: 'get' | 'post', url: string, options: CallOptions = {}): Promise<T> {
      const { status, body } = await call(method, url, options);
      if (status === 200 && body && !body.error) return body as T;
      return check(status === 200 ? 400 : status, body, options.silent) as T;
    },
    /** A multipart upload (files to the resource API), with the same headers and failure rule. */
    async upload<T = any>(url: string, body: FormData): Promise<T> {
      const headers: Record<string, string> = { Authorization: basic(), 'Accept-Language': hooks.lang() === 'en' ? 'en' : 'zh-CN' };
      const token = hooks.token();
      if (token) headers[website.tokenHeader] = `bearer ${token}`;
      const response = await client(url, { method: 'post', headers, body });
      const answer = (response.headers.get('content-type') ?? '').includes('json') ? await response.json().catch(() => null) : null;
      return check(response.status, answer ?? { code: response.status }).data as T;
    },
    /** A binary download (exports). */
    async blob(url: string, searchParams?: CallOptions['searchParams']): Promise<{ blob: Blob; filename: string }> {
      const { status, body, response } = await call('get', url, { searchParams });
      if (status !== 200 || body) check(status, body ?? { code: status });
      const disposition = response.headers.get('content-disposition') ?? '';
      const match = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
      return { blob: await response.blob(), filename: match ? decodeURIComponent(match[1]) : 'download' };
    },
  };
}

export type Http = ReturnType<typeof createHttp>;
