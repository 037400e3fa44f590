// 授权配置 of the selected tenants: account quota (-1 unlimited) and expiry, POST tenant/setting with
// ids plus accountNumber and expireTime (empty: never expires). Values all tenants share are shown.
import { DatePicker, Form, InputNumber, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useAtomValue } from 'jotai';
import type { FieldModel, Lang } from '../../engine/model/types.ts';
import { useT } from '../i18n/useT.ts';
import type { ActionDialogProps, Row } from '../renderers/extensions.ts';
import { langAtom } from '../state/session.ts';
import { SelectedRows } from './SelectedRows.tsx';
import { useSubmit } from './useSubmit.ts';

const DATETIME = 'YYYY-MM-DD HH:mm:ss';

interface Values {
  accountNumber: number;
  expireTime: Dayjs | null;
}

/** The value when every row has the same one. */
function shared(rows: Row[], field: string): unknown {
  const first = rows[0]?.[field];
  return rows.every((r) => r[field] === first) ? first : undefined;
}

/** A field's schema description in the user's language ("-1 表示不限"). */
export function fieldHelp(field: FieldModel, lang: Lang): string | undefined {
  return lang === 'en' ? field.schema['x-i18n']?.description : field.schema.description;
}

export default function TenantSettingDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const [form] = Form.useForm<Values>();
  const { accountNumber, expireTime } = model.fieldMap;
  const expiry = shared(rows, 'expireTime');
  const initial: Values = { accountNumber: Number(shared(rows, 'accountNumber') ?? -1), expireTime: expiry ? dayjs(String(expiry)) : null };
  const { submit, busy } = useSubmit(() => onClose(true));
  const save = (v: Values) =>
    submit((http) =>
      http.post(`${model.api}/setting`, undefined, {
        searchParams: {
          ids: rows.map((r) => r.id).join(','),
          accountNumber: v.accountNumber,
          expireTime: v.expireTime ? v.expireTime.format(DATETIME) : '',
        },
      }),
    );

  return (
    <Modal
      open
      width={520}
      title={t('admin.tenant.setting')}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      confirmLoading={busy}
    >
      <SelectedRows model={model} rows={rows} />
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(v) => void save(v)}>
        <Form.Item
          name="accountNumber"
          label={accountNumber.label[lang]}
          extra={fieldHelp(accountNumber, lang)}
          rules={[{ required: true, message: t('admin.pleaseInput', { label: accountNumber.label[lang] }) }]}
        >
          <InputNumber min={-1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="expireTime" label={expireTime.label[lang]}>
          <DatePicker showTime format={DATETIME} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
