// The login page: tenant number (hidden when the domain names a tenant), user name, password
// (hashed before it leaves the browser), captcha with refresh; and the registration dialog.
import { LockOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { App, Button, Card, Input, Modal, Space, Typography } from 'antd';
import { useAtom } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { authApi } from '../api/client.ts';
import { loadSession } from '../app/bootstrap.ts';
import { website } from '../app/website.ts';
import { useT } from '../i18n/useT.ts';
import { LanguageSwitch } from '../shell/LanguageSwitch.tsx';
import { langAtom, startSession } from '../state/session.ts';
import { getStore } from '../state/storage.ts';

interface LoginValues {
  tenantId: string;
  username: string;
  password: string;
  code: string;
}

function RegisterDialog({ open, onClose, tenantId, tenantKnown }: { open: boolean; onClose: () => void; tenantId: string; tenantKnown: boolean }) {
  const t = useT();
  const { message } = App.useApp();
  const [form, setForm] = useState({ tenantId, name: '', account: '', password: '', password2: '' });
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const submit = async () => {
    // checked in the order of the specification, each with a warning
    if (!form.tenantId) return message.warning(t('register.noTenant'));
    if (!form.account) return message.warning(t('register.noAccount'));
    if (!form.password || !form.password2) return message.warning(t('register.noPassword'));
    if (form.password !== form.password2) return message.warning(t('register.mismatch'));
    setBusy(true);
    try {
      await authApi.registerGuest({ tenantId: form.tenantId, name: form.name, account: form.account, password: form.password });
      Modal.success({ content: t('register.awaiting'), onOk: () => navigate('/login') });
      onClose();
    } catch (err) {
      if (!(err as Error).message) message.error(t('register.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={t('register.title')} open={open} onCancel={onClose} onOk={submit} okText={t('register.submit')} confirmLoading={busy} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }}>
        {!tenantKnown && <Input placeholder={t('register.tenant')} value={form.tenantId} onChange={set('tenantId')} data-testid="register-tenant" />}
        <Input placeholder={t('register.name')} value={form.name} onChange={set('name')} />
        <Input placeholder={t('register.account')} value={form.account} onChange={set('account')} data-testid="register-account" />
        <Input.Password placeholder={t('register.password')} value={form.password} onChange={set('password')} />
        <Input.Password placeholder={t('register.password2')} value={form.password2} onChange={set('password2')} />
      </Space>
    </Modal>
  );
}

export default function Login() {
  const t = useT();
  const [lang] = useAtom(langAtom);
  const [, navigate] = useLocation();
  const [captcha, setCaptcha] = useState<{ key: string; image: string } | null>(null);
  const [tenantKnown, setTenantKnown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [registering, setRegistering] = useState(false);
  const { control, handleSubmit, setValue, formState: { errors }, watch } = useForm<LoginValues>({
    defaultValues: { tenantId: getStore<string>('tenantId') ?? website.tenantId, username: '', password: '', code: '' },
  });

  const refreshCaptcha = useCallback(async () => {
    if (!website.captchaMode) return;
    setCaptcha(await authApi.captcha());
    setValue('code', '');
  }, [setValue]);

  useEffect(() => {
    void refreshCaptcha();
    authApi.tenantInfo(window.location.origin).then((info) => {
      if (info?.tenantId) {
        setValue('tenantId', info.tenantId);
        setTenantKnown(true);
      }
    }).catch(() => undefined);
  }, [refreshCaptcha, setValue]);

  const onSubmit = async (values: LoginValues) => {
    setBusy(true);
    try {
      const info = await authApi.login({ tenantId: values.tenantId, username: values.username, password: values.password, captchaKey: captcha?.key, captchaCode: values.code });
      startSession(info);
      await loadSession();
      navigate(website.firstPage.path);
    } catch {
      await refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  const required = (field: string) => ({ required: t('login.required', { field }) });
  const error = (name: keyof LoginValues) => errors[name] && <Typography.Text type="danger" style={{ fontSize: 12 }}>{errors[name]?.message}</Typography.Text>;

  return (
    <div className="zs-login">
      <div className="zs-login-brand">
        <div className="zs-login-logo">筑</div>
        <h1>{t('app.name')}</h1>
        <p>{lang === 'zh' ? '合同 · 材料 · 结算 · 预警,一本账管到底' : 'Contracts, materials, settlements and warnings in one ledger'}</p>
      </div>
      <Card className="zs-login-card" title={t('login.title')} extra={<LanguageSwitch />}>
        <form onSubmit={handleSubmit(onSubmit)} noValidate>
          <Space direction="vertical" size="middle" style={{ width: '100%' }}>
            {website.tenantMode && !tenantKnown && (
              <div>
                <Controller name="tenantId" control={control} rules={required(t('login.tenant'))} render={({ field }) => <Input {...field} size="large" prefix={<TeamOutlined />} placeholder={t('login.tenant')} aria-label={t('login.tenant')} />} />
                {error('tenantId')}
              </div>
            )}
            <div>
              <Controller name="username" control={control} rules={required(t('login.username'))} render={({ field }) => <Input {...field} size="large" prefix={<UserOutlined />} placeholder={t('login.username')} aria-label={t('login.username')} autoComplete="username" />} />
              {error('username')}
            </div>
            <div>
              <Controller name="password" control={control} rules={required(t('login.password'))} render={({ field }) => <Input.Password {...field} size="large" prefix={<LockOutlined />} placeholder={t('login.password')} aria-label={t('login.password')} autoComplete="current-password" />} />
              {error('password')}
            </div>
            {website.captchaMode && (
              <div>
                <div style={{ display: 'flex', gap: 8 }}>
                  <Controller name="code" control={control} rules={required(t('login.captcha'))} render={({ field }) => <Input {...field} size="large" prefix={<SafetyOutlined />} placeholder={t('login.captcha')} aria-label={t('login.captcha')} maxLength={5} />} />
                  {captcha && <img src={captcha.image} alt={t('login.captcha')} title={t('login.refreshCaptcha')} onClick={() => void refreshCaptcha()} className="zs-captcha" data-captcha-key={captcha.key} />}
                </div>
                {error('code')}
              </div>
            )}
            <Button type="primary" htmlType="submit" size="large" block loading={busy}>{t('login.submit')}</Button>
            <Button type="link" onClick={() => setRegistering(true)} style={{ padding: 0 }}>{t('login.register')}</Button>
          </Space>
        </form>
      </Card>
      <RegisterDialog open={registering} onClose={() => setRegistering(false)} tenantId={watch('tenantId')} tenantKnown={tenantKnown} />
    </div>
  );
}
