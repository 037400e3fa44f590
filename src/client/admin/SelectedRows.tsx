// The line above an admin dialog naming the records it acts on (已选择 2 条数据:张三、李四).
import { Typography } from 'antd';
import { useT } from '../i18n/useT.ts';
import type { EntityModel } from '../../engine/model/types.ts';
import type { Row } from '../renderers/extensions.ts';

export function SelectedRows({ model, rows }: { model: EntityModel; rows: Row[] }) {
  const t = useT();
  const names = rows.map((r) => String(r[model.titleField ?? 'id'] ?? r.id)).join('、');
  return (
    <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }}>
      {t('admin.selected', { count: rows.length, names })}
    </Typography.Paragraph>
  );
}
