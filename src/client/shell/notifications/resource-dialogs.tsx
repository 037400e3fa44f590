// The dialogs of the resource screens' extra actions (resource-actions.ts registers them): 启用 on a
// storage or SMS configuration, 发送短信 and 上传 of attachments (multipart put-file with the session's
// token). Loaded when one of them first opens: the shell registers the actions on every page, while
// these dialogs (and antd's Upload) are wanted on three rarely visited screens.
import { InboxOutlined } from '@ant-design/icons';
import { App, Form, Input, Modal, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useSubmit } from '../../admin/useSubmit.ts';
import { website } from '../../app/website.ts';
import type { ActionDialogProps } from '../../renderers/extensions.ts';
import { tokenStore } from '../../state/storage.ts';
import { useT } from '../../i18n/useT.ts';

export function EnableDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const { submit, busy } = useSubmit(() => onClose(true));
  const row = rows[0];
  const code = String(row?.ossCode ?? row?.smsCode ?? row?.id ?? '');
  const enable = () =>
    submit(
      (http) => http.post(`${model.api}/enable`, undefined, { searchParams: { id: row.id } }),
      () => t('resource.enabled', { code }),
    );
  return (
    <Modal
      open
      width={480}
      title={t('resource.enable')}
      onCancel={() => onClose(false)}
      onOk={() => void enable()}
      confirmLoading={busy}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
    >
      <Typography.Paragraph>
        {t('resource.enableConfirm', { code, what: t(model.key === 'sms' ? 'resource.sms' : 'resource.storage') })}
      </Typography.Paragraph>
    </Modal>
  );
}

export function SendSmsDialog({ model, onClose }: ActionDialogProps) {
  const t = useT();
  const [form] = Form.useForm<{ code?: string; phones: string; params?: string }>();
  const { submit, busy } = useSubmit(() => onClose(false));
  const send = (values: { code?: string; phones: string; params?: string }) => {
    const phones = values.phones
      .split(/[\s,,]+/)
      .filter(Boolean)
      .join(',');
    return submit(
      (http) =>
        http.post<{ recorded: boolean }>(`${model.api}/endpoint/send-message`, undefined, {
          searchParams: { code: values.code || undefined, phones, params: values.params || undefined },
        }),
      (answer) => (answer?.recorded ? t('resource.smsRecorded') : t('resource.smsSent')),
    );
  };
  return (
    <Modal
      open
      width={560}
      title={t('resource.sendSms')}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okText={t('send.submit')}
      cancelText={t('common.cancel')}
    >
      <Form form={form} layout="vertical" onFinish={(v) => void send(v)}>
        <Form.Item name="code" label={t('resource.smsCode')}>
          <Input />
        </Form.Item>
        <Form.Item
          name="phones"
          label={t('resource.phones')}
          rules={[{ required: true, message: t('send.required', { field: t('resource.phones') }) }]}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item name="params" label={t('resource.params')}>
          <Input.TextArea rows={3} placeholder='{"code": "4821"}' />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function UploadDialog({ onClose }: ActionDialogProps) {
  const t = useT();
  const { message } = App.useApp();
  const [uploaded, setUploaded] = useState(0);
  return (
    <Modal open width={560} title={t('resource.uploadTitle')} onCancel={() => onClose(uploaded > 0)} footer={null} destroyOnHidden>
      <Upload.Dragger
        name="file"
        multiple
        action="/api/blade-resource/oss/endpoint/put-file"
        headers={{
          [website.tokenHeader]: `bearer ${tokenStore.access}`,
          Authorization: `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`,
        }}
        onChange={({ file }) => {
          if (file.status === 'done' && file.response?.code === 200) {
            setUploaded((n) => n + 1);
            void message.success(t('resource.uploaded', { name: file.name }));
          } else if (file.status === 'done' || file.status === 'error') {
            // a refusal: the server's message (wrong type, too large, empty, bad name …)
            void message.error(file.response?.msg ?? file.error?.message ?? file.name);
          }
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('resource.uploadHint')}</p>
      </Upload.Dragger>
    </Modal>
  );
}
