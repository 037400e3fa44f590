// The registration dialog ('account registration'), checked in the order of the specification.
import { App, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { authApi } from '../api/client.ts';
import { useT } from '../i18n/useT.ts';

export default function RegisterDialog({
  open,
  onClose,
  tenantId,
  tenantKnown,
}: {
  open: boolean;
  onClose: () => void;
  tenantId: string;
  tenantKnown: boolean;
}) {
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
      if (!(err as Error).message) void message.error(t('register.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t('register.title')}
      open={open}
      onCancel={onClose}
      onOk={submit}
      okText={t('register.submit')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {!tenantKnown && (
          <Input placeholder={t('register.tenant')} value={form.tenantId} onChange={set('tenantId')} data-testid="register-tenant" />
        )}
        <Input placeholder={t('register.name')} value={form.name} onChange={set('name')} />
        <Input placeholder={t('register.account')} value={form.account} onChange={set('account')} data-testid="register-account" />
        <Input.Password placeholder={t('register.password')} value={form.password} onChange={set('password')} />
        <Input.Password placeholder={t('register.password2')} value={form.password2} onChange={set('password2')} />
      </Space>
    </Modal>
  );
}
