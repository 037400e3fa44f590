// Sending a message (needs the message_add button): an ordinary message to chosen users, a
// department broadcast (the departments and their sub-departments) or a role broadcast. Approval
// messages are the system's, so they are not offered. The server's field errors land on the fields.
import { useQuery } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select, TreeSelect } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../api/http.ts';
import { useDictionary } from '../../renderers/data.ts';
import { MESSAGE_TYPE_DICT, type MessageApi } from './api.ts';
import { useT } from '../../i18n/useT.ts';

interface SendValues {
  type: string;
  receiverIds?: string[];
  deptIds?: string[];
  roleIds?: string[];
  title: string;
  content: string;
}

const RECIPIENT_FIELD: Record<string, 'receiverIds' | 'deptIds' | 'roleIds'> = { '1': 'receiverIds', '2': 'deptIds', '4': 'roleIds' };

export function SendMessageForm({
  api,
  open,
  onClose,
  onSent,
}: {
  api: MessageApi;
  open: boolean;
  onClose: () => void;
  onSent?: () => void;
}) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<SendValues>();
  const type = Form.useWatch('type', form) ?? '1';
  const [keyword, setKeyword] = useState('');
  const [sending, setSending] = useState(false);
  const types = useDictionary(MESSAGE_TYPE_DICT);
  const users = useQuery({
    queryKey: ['message-users', keyword],
    enabled: open && type === '1',
    queryFn: () => api.users(keyword),
    staleTime: 30_000,
  });
  const depts = useQuery({ queryKey: ['message-depts'], enabled: open && type === '2', queryFn: api.depts, staleTime: 60_000 });
  const roles = useQuery({ queryKey: ['message-roles'], enabled: open && type === '4', queryFn: api.roles, staleTime: 60_000 });
  const [known, setKnown] = useState<Record<string, string>>({});
  const userOptions = [
    ...new Map([...(users.data?.records ?? []).map((o) => [o.value, o.label] as const), ...Object.entries(known)]).entries(),
  ].map(([value, label]) => ({ value, label }));

  const submit = async (values: SendValues) => {
    const field = RECIPIENT_FIELD[values.type];
    const record = { type: values.type, title: values.title, content: values.content, [field]: (values[field] ?? []).join(',') };
    setSending(true);
    try {
      await api.send(record);
      void message.success(t('toast.sent'));
      form.resetFields();
      onSent?.();
      onClose();
    } catch (error) {
      const errors =
        error instanceof ApiError ? (error.body as { data?: { errors?: { path: string; message: string }[] } })?.data?.errors : undefined;
      // the HTTP client has shown the server's message; field errors also go beside their fields
      if (errors?.length)
        form.setFields(errors.map((e) => ({ name: e.path.replace(/^\//, '').split('/')[0] as keyof SendValues, errors: [e.message] })));
    } finally {
      setSending(false);
    }
  };

  const required = (key: 'send.required' | 'send.choose', label: string) => [{ required: true, message: t(key, { field: label }) }];
  return (
    <Modal
      open={open}
      title={t('send.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('send.submit')}
      cancelText={t('send.cancel')}
      confirmLoading={sending}
      destroyOnHidden
      width={640}
    >
      <Form form={form} layout="vertical" initialValues={{ type: '1' }} onFinish={submit} preserve={false}>
        <Form.Item name="type" label={t('send.type')} rules={required('send.choose', t('send.type'))}>
          <Select options={(types.data ?? []).filter((d) => d.value !== '3')} aria-label={t('send.type')} />
        </Form.Item>
        {type === '1' && (
          <Form.Item name="receiverIds" label={t('send.users')} rules={required('send.choose', t('send.users'))}>
            <Select
              mode="multiple"
              showSearch={{ filterOption: false, onSearch: setKeyword }}
              placeholder={t('send.search')}
              options={userOptions}
              loading={users.isFetching}
              aria-label={t('send.users')}
              onChange={(_v, options) =>
                setKnown((k) => ({
                  ...k,
                  ...Object.fromEntries((options as { value: string; label: string }[]).map((o) => [o.value, o.label])),
                }))
              }
            />
          </Form.Item>
        )}
        {type === '2' && (
          <Form.Item name="deptIds" label={t('send.depts')} rules={required('send.choose', t('send.depts'))}>
            <TreeSelect
              multiple
              treeDefaultExpandAll
              treeData={depts.data ?? []}
              fieldNames={{ label: 'title', value: 'id', children: 'children' }}
              aria-label={t('send.depts')}
            />
          </Form.Item>
        )}
        {type === '4' && (
          <Form.Item name="roleIds" label={t('send.roles')} rules={required('send.choose', t('send.roles'))}>
            <TreeSelect
              multiple
              treeDefaultExpandAll
              treeData={roles.data ?? []}
              fieldNames={{ label: 'title', value: 'id', children: 'children' }}
              aria-label={t('send.roles')}
            />
          </Form.Item>
        )}
        <Form.Item name="title" label={t('send.subject')} rules={required('send.required', t('send.subject'))}>
          <Input maxLength={200} aria-label={t('send.subject')} />
        </Form.Item>
        <Form.Item name="content" label={t('send.content')} rules={required('send.required', t('send.content'))}>
          <Input.TextArea rows={5} maxLength={5000} showCount aria-label={t('send.content')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
