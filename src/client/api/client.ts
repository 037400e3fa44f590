// The application's HTTP client and the calls the shell makes.
import { md5 } from 'js-md5';
import { navigate } from 'wouter/use-browser-location';
import { forgetEarly, takeEarly } from '../app/prefetch.ts';
import { website } from '../app/website.ts';
import { translate } from '../i18n/useT.ts';
import { appStore, endSession, langAtom, type MenuNode, type UserInfo } from '../state/session.ts';
import { tokenStore } from '../state/storage.ts';
import { createHttp } from './http.ts';

const client = createHttp({
  token: () => tokenStore.access,
  lang: () => appStore.get(langAtom),
  onUnauthorized: () => {
    endSession();
    navigate('/login');
  },
  notify: (text) => {
    // antd loads lazily: the login page works without it
    void import('antd').then(({ message }) => message.error(text));
  },
  unknownError: () => translate(appStore.get(langAtom), 'common.unknownError'),
});

/**
 * The client; a GET a page load asked for early (app/prefetch.ts) is answered by that request, until
 * the first write.
 */
export const http: typeof client = {
  ...client,
  get: (url, searchParams, options) => takeEarly(url, searchParams) ?? client.get(url, searchParams, options),
  post: (url, json, options) => {
    forgetEarly();
    return client.post(url, json, options);
  },
  raw: (method, url, options) => {
    if (method !== 'get') forgetEarly();
    return client.raw(method, url, options);
  },
  upload: (url, body) => {
    forgetEarly();
    return client.upload(url, body);
  },
};

/** The client itself, for the early requests (which must not take their own answers). */
export const directHttp = client;

/** Passwords leave the browser hashed, as the platform's server expects. */
export const hashPassword = (plain: string) => md5(plain);

export interface LoginForm {
  tenantId: string;
  username: string;
  password: string;
  captchaKey?: string;
  captchaCode?: string;
  deptId?: string;
  roleId?: string;
}

export const authApi = {
  captcha: () => http.raw<{ key: string; image: string }>('get', '/api/blade-auth/oauth/captcha', { token: false }),
  login: (form: LoginForm) =>
    http.raw<UserInfo>('post', '/api/blade-auth/oauth/token', {
      token: false,
      silent: true, // the login page shows the refusal beside the form
      headers: {
        'Tenant-Id': form.tenantId,
        'Dept-Id': website.switchMode ? (form.deptId ?? '') : '',
        'Role-Id': website.switchMode ? (form.roleId ?? '') : '',
        'Captcha-Key': form.captchaKey ?? '',
        'Captcha-Code': form.captchaCode ?? '',
      },
      searchParams: {
        tenantId: form.tenantId,
        username: form.username,
        password: hashPassword(form.password),
        grant_type: website.captchaMode ? 'captcha' : 'password',
        scope: 'all',
        type: 'account',
      },
    }),
  /** A new token; with a department and role, narrowed to them (switch mode). */
  refresh: (refreshToken: string, tenantId: string, deptId = '', roleId = '') =>
    http.raw<UserInfo>('post', '/api/blade-auth/oauth/token', {
      token: false,
      headers: { 'Tenant-Id': tenantId, 'Dept-Id': deptId, 'Role-Id': roleId },
      searchParams: { tenantId, refresh_token: refreshToken, grant_type: 'refresh_token', scope: 'all' },
    }),
  logout: (logs: unknown[]) => http.raw('post', '/api/blade-auth/oauth/logout', { json: logs }),
  uploadLogs: (logs: unknown[]) => http.post('/api/blade-auth/oauth/client-logs', logs),
  tenantInfo: (domain: string) => http.get<{ tenantId?: string }>('/api/blade-system/tenant/info', { domain }, { token: false }),
  registerGuest: (form: { tenantId: string; name: string; account: string; password: string }) =>
    http.post('/api/blade-system/user/register-guest', { ...form, oauthId: '' }, { token: false }),
  routes: (topMenuId?: string | null) => http.get<MenuNode[]>('/api/blade-system/menu/routes', { topMenuId: topMenuId ?? undefined }),
  buttons: () => http.get<MenuNode[]>('/api/blade-system/menu/buttons'),
  topMenus: () => http.get<{ id: string; name: string; nameEn?: string; code: string }[]>('/api/blade-system/menu/top-menu'),
  userInfo: () => http.get<Record<string, any>>('/api/blade-system/user/info'),
  updateInfo: (info: Record<string, unknown>) => http.post('/api/blade-system/user/update-info', info),
  updatePassword: (oldPassword: string, newPassword: string, newPassword1: string) =>
    http.post('/api/blade-system/user/update-password', undefined, {
      searchParams: {
        oldPassword: hashPassword(oldPassword),
        newPassword: hashPassword(newPassword),
        newPassword1: hashPassword(newPassword1),
      },
    }),
  deptSelect: (userId?: string) => http.get<{ id: string; deptName: string }[]>('/api/blade-system/dept/select', { userId }),
  roleSelect: (userId?: string) => http.get<{ id: string; roleName: string }[]>('/api/blade-system/role/select', { userId }),
};
