// Personal info (avatar, real name, user name, phone, email) and change password (old, new, confirm).
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Avatar, Button, Form, Input, Space, Tabs, Upload } from 'antd';
import { phoneProblem } from '../../engine/format/checks.ts';
import { authApi, http } from '../api/client.ts';
import { website } from '../app/website.ts';
import { useT } from '../i18n/useT.ts';
import { CardBox } from '../shell/Tile.tsx';

const AVATAR_UPLOAD = '/api/blade-resource/oss/endpoint/put-file';

/** The avatar rule: jpg/png, at most 500 kb; the message key of what is wrong, or null. */
export function avatarProblem(file: { type: string; size: number }): 'info.avatarType' | 'info.avatarSize' | null {
  if (!(website.avatar.types as readonly string[]).includes(file.type)) return 'info.avatarType';
  if (file.size > website.avatar.maxKb * 1024) return 'info.avatarSize';
  return null;
}

function InfoForm() {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const { data } = useQuery({ queryKey: ['user-info'], queryFn: authApi.userInfo });
  const avatar = Form.useWatch('avatar', form);
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 480 }}
      initialValues={data}
      key={data?.id ?? 'loading'}
      onFinish={async (values) => {
        await authApi.updateInfo(values);
        void message.success(t('common.saved'));
      }}
    >
      {/* the link lives in a field of its own: a Form.Item name on the Space would also take the file
          input's change event and show its C:\fakepath\… name as the picture */}
      <Form.Item name="avatar" hidden>
        <Input />
      </Form.Item>
      <Form.Item label={t('info.avatar')}>
        <Space>
          <Avatar size={64} src={avatar || undefined}>
            {data?.realName?.slice(0, 1)}
          </Avatar>
          <Upload
            // until the stored info arrives (and remounts the form) an upload would be lost
            disabled={!data}
            accept=".jpg,.jpeg,.png"
            showUploadList={false}
            beforeUpload={(file) => {
              const problem = avatarProblem(file);
              if (problem) void message.error(t(problem));
              return problem ? Upload.LIST_IGNORE : true;
            }}
            // through the app's client: its credentials, and the server's refusal shown as a toast
            customRequest={({ file, onSuccess, onError }) => {
              const body = new FormData();
              body.append('file', file as File);
              http.upload<{ link: string }>(`${AVATAR_UPLOAD}?kind=avatar`, body).then(
                (uploaded) => {
                  form.setFieldValue('avatar', uploaded.link);
                  onSuccess?.(uploaded);
                },
                (err: Error) => onError?.(err),
              );
            }}
          >
            <Button icon={<UploadOutlined />}>{t('info.avatar')}</Button>
          </Upload>
        </Space>
      </Form.Item>
      <Form.Item name="realName" label={t('info.realName')} rules={[{ required: true }]}>
        <Input />
      </Form.Item>
      <Form.Item name="name" label={t('info.userName')} rules={[{ required: true }]}>
        <Input />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('info.phone')}
        rules={[
          {
            validator: async (_r, v) => {
              const p = phoneProblem(v);
              if (p) throw new Error(t(p));
            },
          },
        ]}
      >
        <Input maxLength={11} />
      </Form.Item>
      <Form.Item name="email" label={t('info.email')} rules={[{ type: 'email' }]}>
        <Input />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        {t('common.save')}
      </Button>
    </Form>
  );
}

/** The password change (old, new, confirmation); `onChanged` runs once the server took it. */
export function PasswordForm({ onChanged }: { onChanged?: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 480 }}
      onFinish={async (v) => {
        await authApi.updatePassword(v.oldPassword, v.newPassword, v.newPassword1);
        form.resetFields();
        if (onChanged) onChanged();
        else void message.success(t('common.saved'));
      }}
    >
      <Form.Item name="oldPassword" label={t('info.oldPassword')} rules={[{ required: true }]}>
        <Input.Password />
      </Form.Item>
      <Form.Item name="newPassword" label={t('info.newPassword')} rules={[{ required: true, min: 5 }]}>
        <Input.Password />
      </Form.Item>
      <Form.Item
        name="newPassword1"
        label={t('info.newPassword1')}
        dependencies={['newPassword']}
        rules={[
          { required: true },
          ({ getFieldValue }) => ({
            validator: async (_r, v) => {
              if (v && v !== getFieldValue('newPassword')) throw new Error(t('register.mismatch'));
            },
          }),
        ]}
      >
        <Input.Password />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        {t('common.save')}
      </Button>
    </Form>
  );
}

export default function Profile() {
  const t = useT();
  return (
    <CardBox>
      <Tabs
        items={[
          { key: 'info', label: t('info.basic'), children: <InfoForm /> },
          { key: 'password', label: t('info.password'), children: <PasswordForm /> },
        ]}
      />
    </CardBox>
  );
}
