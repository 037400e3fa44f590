// 密码重置 and 账号解封 of the selected users: a confirmation, then POST user/reset-password or
// user/unlock with userIds.
import { Modal, Typography } from 'antd';
import type { MessageKey } from '../i18n/messages.ts';
import { useT } from '../i18n/useT.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { SelectedRows } from './SelectedRows.tsx';
import { useSubmit } from './useSubmit.ts';

interface ConfirmProps extends ActionDialogProps {
  call: 'reset-password' | 'unlock';
  title: MessageKey;
  question: MessageKey;
}

function UserConfirmDialog({ model, rows, onClose, call, title, question }: ConfirmProps) {
  const t = useT();
  const { submit, busy } = useSubmit(() => onClose(true));
  const confirm = () =>
    submit((http) => http.post(`${model.api}/${call}`, undefined, { searchParams: { userIds: rows.map((r) => r.id).join(',') } }));
  return (
    <Modal open width={480} title={t(title)} onCancel={() => onClose(false)} onOk={() => void confirm()} confirmLoading={busy}>
      <Typography.Paragraph strong>{t(question)}</Typography.Paragraph>
      <SelectedRows model={model} rows={rows} />
    </Modal>
  );
}

export function ResetPasswordDialog(props: ActionDialogProps) {
  return <UserConfirmDialog {...props} call="reset-password" title="admin.user.reset" question="admin.user.resetConfirm" />;
}

export function UnlockDialog(props: ActionDialogProps) {
  return <UserConfirmDialog {...props} call="unlock" title="admin.user.unlock" question="admin.user.unlockConfirm" />;
}
