// Who created and last changed a record, and when: user ids shown as the users' names (one
// options request to the user entity for both), times in the user's locale.
import { Descriptions } from 'antd';
import { useAtomValue } from 'jotai';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { useReferenceLabels } from '../data.ts';
import { FieldDisplay } from '../displays/FieldDisplay.tsx';
import type { Row } from '../extensions.ts';
import { AUDIT_FIELDS } from './sections.ts';

const USER_FIELDS = new Set(['createUser', 'updateUser']);

export function AuditInfo({ model, record, columns }: { model: EntityModel; record: Row; columns: number }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const userIds = [record.createUser, record.updateUser];
  const { data: users } = useReferenceLabels('user', userIds);
  const fields = AUDIT_FIELDS.map((name) => model.fieldMap[name]).filter(Boolean);
  if (!fields.length) return null;
  const items = fields.map((field) => ({
    key: field.name,
    label: field.label[lang],
    children: USER_FIELDS.has(field.name) ? (
      record[field.name] ? (
        (users?.[String(record[field.name])] ?? '')
      ) : (
        '—'
      )
    ) : (
      <FieldDisplay field={field} value={record[field.name]} />
    ),
  }));
  return (
    <Descriptions
      title={t('detail.audit')}
      bordered
      size="small"
      column={Math.min(columns, 2)}
      items={items}
      styles={{ label: { whiteSpace: 'nowrap' } }}
      data-testid="detail-audit"
    />
  );
}
