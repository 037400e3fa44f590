// Switch department and role (only when switch mode is on): a refresh narrowed to the choice.
import { App, Form, Modal, Select } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { authApi } from '../api/client.ts';
import { loadSession } from '../app/bootstrap.ts';
import { useT } from '../i18n/useT.ts';
import { renewSession, userInfoAtom } from '../state/session.ts';
import { tokenStore } from '../state/storage.ts';

export function SwitchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const user = useAtomValue(userInfoAtom);
  const [depts, setDepts] = useState<{ id: string; deptName: string }[]>([]);
  const [roles, setRoles] = useState<{ id: string; roleName: string }[]>([]);
  const [form] = Form.useForm();
  useEffect(() => {
    if (!open || !user) return;
    authApi
      .deptSelect(user.user_id)
      .then(setDepts)
      .catch(() => undefined);
    authApi
      .roleSelect(user.user_id)
      .then(setRoles)
      .catch(() => undefined);
  }, [open, user]);
  const submit = async () => {
    const { deptId, roleId } = await form.validateFields();
    renewSession(await authApi.refresh(tokenStore.refresh, user!.tenant_id, deptId, roleId));
    await loadSession();
    void message.success(t('common.success'));
    onClose();
  };
  return (
    <Modal title={t('switch.title')} open={open} onOk={submit} onCancel={onClose} okText={t('switch.submit')}>
      <Form form={form} layout="vertical">
        <Form.Item name="deptId" label={t('switch.dept')} rules={[{ required: true, message: t('switch.deptRequired') }]}>
          <Select options={depts.map((d) => ({ value: d.id, label: d.deptName }))} />
        </Form.Item>
        <Form.Item name="roleId" label={t('switch.role')} rules={[{ required: true, message: t('switch.roleRequired') }]}>
          <Select options={roles.map((r) => ({ value: r.id, label: r.roleName }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
