// The two panels of the dictionary pages: the dictionaries (search by code and name, add, edit,
// delete, click to choose one) and the entries of the chosen dictionary (add, edit, delete).
import { DeleteOutlined, EditOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Form, Input, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { EntityModel, Lang } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import type { Row } from '../../renderers/extensions.ts';
import { CardBox } from '../../shell/Tile.tsx';
import { langAtom } from '../../state/session.ts';
import { useCan, usePaged, useRemove } from './useDictTables.ts';

/** What the page's form dialog opens with: a record to edit, or the values a new one starts from. */
export interface DictEdit {
  id?: string;
  initial: Row;
}

interface PanelProps {
  model: EntityModel;
  onEdit: (edit: DictEdit) => void;
}

function columnsOf(model: EntityModel, fields: string[], lang: Lang): ColumnsType<Row> {
  return fields.map((name) => {
    const field = model.fieldMap[name];
    const render = field.options
      ? (v: unknown) => (
          <Tag color={v ? 'red' : 'green'}>{field.options!.find((o) => String(o.value) === String(v))?.label[lang] ?? String(v ?? '')}</Tag>
        )
      : undefined;
    // numbers and yes/no tags are short: the codes and names get the room
    const width = field.options ? 80 : field.kind === 'integer' ? 90 : undefined;
    return { key: name, dataIndex: name, title: field.label[lang], ellipsis: true, width, render };
  });
}

function useActionsColumn(model: EntityModel, onEdit: (row: Row) => void, onRemove: (row: Row) => void): ColumnsType<Row> {
  const t = useT();
  const can = useCan(model);
  if (!can('edit') && !can('delete')) return [];
  return [
    {
      key: '__actions',
      title: t('common.actions'),
      width: 150,
      render: (_: unknown, row: Row) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          {can('edit') && (
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(row)}>
              {t('list.edit')}
            </Button>
          )}
          {can('delete') && (
            <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => onRemove(row)}>
              {t('common.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];
}

const pagination = (model: EntityModel, paged: ReturnType<typeof usePaged>, total: number, t: ReturnType<typeof useT>) => ({
  current: paged.page.current,
  pageSize: paged.page.size,
  total,
  showSizeChanger: true,
  size: 'small' as const,
  pageSizeOptions: model.list.pageSizes.map(String),
  showTotal: (n: number) => t('common.total', { total: n }),
  onChange: paged.setPage,
});

export function DictionaryPanel({
  model,
  onEdit,
  selected,
  onSelect,
}: PanelProps & { selected: Row | null; onSelect: (row: Row | null) => void }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const can = useCan(model);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const paged = usePaged(model, 'parent-list', filters);
  const remove = useRemove(model, (ids) => selected && ids.includes(selected.id) && onSelect(null));
  const search = (values: Record<string, string | undefined>) =>
    setFilters(Object.fromEntries(Object.entries(values).filter(([, v]) => v)) as Record<string, string>);
  const columns = [
    ...columnsOf(model, ['code', 'dictValue', 'sort', 'isSealed'], lang),
    ...useActionsColumn(
      model,
      (row) => onEdit({ id: row.id, initial: row }),
      (row) => remove([row.id]),
    ),
  ];
  return (
    <CardBox title={t('dict.parents')}>
      <Form layout="inline" onFinish={search} style={{ marginBottom: 12, rowGap: 8 }}>
        {(['code', 'dictValue'] as const).map((name) => (
          <Form.Item key={name} name={name} label={model.fieldMap[name].label[lang]}>
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('common.search')}
        </Button>
      </Form>
      {can('add') && (
        <Button type="primary" icon={<PlusOutlined />} style={{ marginBottom: 12 }} onClick={() => onEdit({ initial: { parentId: '0' } })}>
          {t('admin.dict.add')}
        </Button>
      )}
      <Table
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={paged.query.data?.records ?? []}
        loading={paged.query.isFetching}
        pagination={pagination(model, paged, paged.query.data?.total ?? 0, t)}
        rowClassName={(r) => (r.id === selected?.id ? 'ant-table-row-selected' : '')}
        onRow={(r) => ({ onClick: () => onSelect(r), style: { cursor: 'pointer' } })}
      />
    </CardBox>
  );
}

export function ItemPanel({ model, onEdit, parent, emptyHint }: PanelProps & { parent: Row | null; emptyHint: string }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const can = useCan(model);
  const paged = usePaged(model, 'child-list', { parentId: parent?.id ?? '' }, parent !== null);
  const remove = useRemove(model, () => undefined);
  const columns = [
    ...columnsOf(model, ['dictKey', 'dictValue', 'dictValueEn', 'sort', 'isSealed'], lang),
    ...useActionsColumn(
      model,
      (row) => onEdit({ id: row.id, initial: row }),
      (row) => remove([row.id]),
    ),
  ];
  if (!parent)
    return (
      <CardBox title={t('dict.children')}>
        <Empty description={emptyHint} />
      </CardBox>
    );
  return (
    <CardBox title={t('admin.dict.items', { name: `${parent.dictValue} (${parent.code})` })}>
      {can('add') && (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          style={{ marginBottom: 12 }}
          onClick={() => onEdit({ initial: { parentId: parent.id, code: parent.code } })}
        >
          {t('admin.dict.addItem')}
        </Button>
      )}
      <Table
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={paged.query.data?.records ?? []}
        loading={paged.query.isFetching}
        pagination={pagination(model, paged, paged.query.data?.total ?? 0, t)}
      />
    </CardBox>
  );
}
