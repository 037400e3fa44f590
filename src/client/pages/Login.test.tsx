// @vitest-environment happy-dom
// The login page without captcha mode (website.captchaMode false): after
// failed logins from this address the server answers captcha_required; the page then shows its
// message and the captcha, and the next try sends the captcha's key and answer.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http.ts';
import { TextsProvider } from '../i18n/TextsProvider.tsx';

const api = vi.hoisted(() => ({ login: vi.fn(), captcha: vi.fn(), tenantInfo: vi.fn() }));

vi.mock('../app/website.ts', async (original) => {
  const real = await original<typeof import('../app/website.ts')>();
  return { ...real, website: { ...real.website, captchaMode: false } };
});
vi.mock('../api/client.ts', () => ({ authApi: api }));

const { default: Login } = await import('./Login.tsx');

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const REQUIRED = '登录失败次数较多,请输入验证码后再登录';

describe('the login page without captcha mode', () => {
  it('shows the captcha when the server requires it, and sends it with the next try', async () => {
    api.tenantInfo.mockResolvedValue({});
    api.captcha.mockResolvedValue({ key: 'k-1', image: 'data:image/svg+xml;base64,PHN2Zy8+' });
    api.login
      .mockRejectedValueOnce(new ApiError(400, REQUIRED, { error: 'captcha_required', error_description: REQUIRED }))
      .mockRejectedValueOnce(new ApiError(400, '用户名或密码错误', { error: 'invalid_grant', error_description: '用户名或密码错误' }));
    render(
      <TextsProvider>
        <Login />
      </TextsProvider>,
    );
    expect(screen.queryByPlaceholderText('验证码')).toBeNull();
    expect(api.captcha).not.toHaveBeenCalled();

    fireEvent.input(screen.getByPlaceholderText('用户名'), { target: { value: 'script' } });
    fireEvent.input(screen.getByPlaceholderText('密码'), { target: { value: 'pass' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));

    expect((await screen.findByRole('alert')).textContent).toBe(REQUIRED);
    const code = await screen.findByPlaceholderText('验证码');
    await waitFor(() => expect(document.querySelector('img.zs-captcha')?.getAttribute('data-captcha-key')).toBe('k-1'));
    expect(api.login.mock.calls[0][0]).toMatchObject({ username: 'script', captchaKey: undefined });

    fireEvent.input(code, { target: { value: 'ab3de' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(api.login).toHaveBeenCalledTimes(2));
    expect(api.login.mock.calls[1][0]).toMatchObject({ username: 'script', captchaKey: 'k-1', captchaCode: 'ab3de' });
    expect((await screen.findByText('用户名或密码错误')).getAttribute('role')).toBe('alert');
  });

  it('names each empty field on submitting, sends nothing, and stops naming a field once it is filled', async () => {
    api.tenantInfo.mockResolvedValue({});
    render(
      <TextsProvider>
        <Login />
      </TextsProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByText('请输入用户名')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByPlaceholderText('用户名'));
    expect(api.login).not.toHaveBeenCalled();

    fireEvent.input(screen.getByPlaceholderText('用户名'), { target: { value: 'admin' } });
    expect(screen.queryByText('请输入用户名')).toBeNull();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(api.login).not.toHaveBeenCalled();
  });
});
