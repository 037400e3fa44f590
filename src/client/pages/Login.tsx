// The login page: tenant number (hidden when the domain names a tenant), user name, password
// (hashed before it leaves the browser), captcha with refresh; and the registration dialog. Without
// captcha mode the captcha appears when the server asks for it (captcha_required, after failed
// logins from this address) and is sent with every try from then on.
// Plain elements and CSS, no antd: it is the first page most visitors load.
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { authApi } from '../api/client.ts';
import { ApiError } from '../api/http.ts';
import { loadSession } from '../app/bootstrap.ts';
import { PASSWORD_PATH } from '../app/guard.ts';
import { website } from '../app/website.ts';
import { useChooseLanguage, useT } from '../i18n/useT.ts';
import { langAtom, startSession, type Lang } from '../state/session.ts';
import { getStore } from '../state/storage.ts';

const ShellProviders = lazy(() => import('../app/ShellProviders.tsx'));
const RegisterDialog = lazy(() => import('./RegisterDialog.tsx'));

interface LoginValues {
  tenantId: string;
  username: string;
  password: string;
  code: string;
}

function Languages() {
  const lang = useAtomValue(langAtom);
  const choose = useChooseLanguage();
  const choice = (value: Lang, label: string) => (
    <button type="button" disabled={lang === value} onClick={() => void choose(value)} data-testid={`lang-${value}`}>
      {label}
    </button>
  );
  return (
    <span className="zs-lang">
      {choice('zh', '中文')}
      {choice('en', 'English')}
    </span>
  );
}

export default function Login() {
  const t = useT();
  const [, navigate] = useLocation();
  const [captcha, setCaptcha] = useState<{ key: string; image: string } | null>(null);
  const [captchaShown, setCaptchaShown] = useState<boolean>(website.captchaMode);
  const [tenantKnown, setTenantKnown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const [registering, setRegistering] = useState(false);
  const [values, setValues] = useState<LoginValues>(() => ({
    tenantId: getStore<string>('tenantId') ?? website.tenantId,
    username: '',
    password: '',
    code: '',
  }));
  // from the first submission on, an empty field says so, until it is filled
  const [checked, setChecked] = useState(false);
  const setValue = useCallback((name: keyof LoginValues, value: string) => setValues((v) => ({ ...v, [name]: value })), []);

  const refreshCaptcha = useCallback(
    async (shown: boolean = website.captchaMode) => {
      if (!shown) return;
      setCaptcha(await authApi.captcha());
      setValue('code', '');
    },
    [setValue],
  );

  useEffect(() => {
    void refreshCaptcha(website.captchaMode);
    authApi
      .tenantInfo(window.location.origin)
      .then((info) => {
        if (info?.tenantId) {
          setValue('tenantId', info.tenantId);
          setTenantKnown(true);
        }
      })
      .catch(() => undefined);
  }, [refreshCaptcha, setValue]);

  // the fields shown, by their labels (the tenant's and the captcha's only when asked for)
  const labels: Partial<Record<keyof LoginValues, string>> = {
    ...(website.tenantMode && !tenantKnown && { tenantId: t('login.tenant') }),
    username: t('login.username'),
    password: t('login.password'),
    ...(captchaShown && { code: t('login.captcha') }),
  };
  const empty = (Object.keys(labels) as (keyof LoginValues)[]).filter((name) => !values[name]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (!empty.length) return void onSubmit(values);
    event.currentTarget.querySelector<HTMLInputElement>(`input[name="${empty[0]}"]`)?.focus();
  };

  const onSubmit = async (values: LoginValues) => {
    setBusy(true);
    setFailure('');
    try {
      const info = await authApi.login({
        tenantId: values.tenantId,
        username: values.username,
        password: values.password,
        captchaKey: captcha?.key,
        captchaCode: values.code,
      });
      startSession(info);
      // the initial (or a reset) password is changed before anything else loads
      if (info.must_change_password) return navigate(PASSWORD_PATH);
      await loadSession();
      navigate(website.firstPage.path);
    } catch (err) {
      // the server's error_description is shown, and the user stays here
      if (err instanceof ApiError) setFailure(err.message);
      const asked = err instanceof ApiError && (err.body as { error?: string } | null)?.error === 'captcha_required';
      if (asked) setCaptchaShown(true);
      await refreshCaptcha(captchaShown || asked);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: keyof LoginValues, type = 'text', extra: Record<string, string | number> = {}) => (
    <input
      name={name}
      value={values[name]}
      onChange={(e) => setValue(name, e.target.value)}
      type={type}
      placeholder={labels[name]}
      aria-label={labels[name]}
      {...extra}
    />
  );
  const error = (name: keyof LoginValues) =>
    checked && empty.includes(name) && <div className="zs-error">{t('login.required', { field: labels[name]! })}</div>;

  return (
    <div className="zs-login">
      <div className="zs-login-brand">
        <div className="zs-login-logo">筑</div>
        <h1>{t('app.name')}</h1>
        <p>{t('login.tagline')}</p>
      </div>
      <div className="zs-login-card">
        <header>
          <h2>{t('login.title')}</h2>
          <Languages />
        </header>
        <form onSubmit={submit} noValidate>
          {website.tenantMode && !tenantKnown && (
            <div className="zs-field">
              {field('tenantId')}
              {error('tenantId')}
            </div>
          )}
          <div className="zs-field">
            {field('username', 'text', { autoComplete: 'username' })}
            {error('username')}
          </div>
          <div className="zs-field">
            {field('password', 'password', { autoComplete: 'current-password' })}
            {error('password')}
          </div>
          {captchaShown && (
            <div className="zs-field">
              <div className="zs-captcha-row">
                {field('code', 'text', { maxLength: 5, autoComplete: 'off' })}
                {captcha && (
                  <img
                    src={captcha.image}
                    alt={t('login.captcha')}
                    title={t('login.refreshCaptcha')}
                    onClick={() => void refreshCaptcha(true)}
                    className="zs-captcha"
                    data-captcha-key={captcha.key}
                  />
                )}
              </div>
              {error('code')}
            </div>
          )}
          {failure && (
            <div className="zs-field">
              <div className="zs-error" role="alert">
                {failure}
              </div>
            </div>
          )}
          <button type="submit" className="zs-primary" disabled={busy}>
            {t('login.submit')}
          </button>
          <button type="button" className="zs-link" onClick={() => setRegistering(true)}>
            {t('login.register')}
          </button>
        </form>
      </div>
      {registering && (
        <Suspense fallback={null}>
          <ShellProviders>
            <RegisterDialog open onClose={() => setRegistering(false)} tenantId={values.tenantId} tenantKnown={tenantKnown} />
          </ShellProviders>
        </Suspense>
      )}
    </div>
  );
}
