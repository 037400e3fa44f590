// The list page of any document type, from its schema alone: the search bar of x-search, the
// columns of x-list, paging (10/30/50/100/200), multi-select with batch delete, export, and a
// read-only detail drawer. Buttons follow the user's button permissions.
import { DeleteOutlined, DownloadOutlined, EyeOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Descriptions, Drawer, Form, Input, Result, Select, Space, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import type { EntityModel, FieldModel, Lang } from '../../engine/model/types.ts';
import { http } from '../api/client.ts';
import { useT } from '../i18n/useT.ts';
import { CardBox } from '../shell/Tile.tsx';
import { langAtom, permissionAtom } from '../state/session.ts';
import { catalog, entityForPath } from './catalog.ts';

type Row = Record<string, any>;

const money = new Intl.NumberFormat('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function useDictionary(f: FieldModel | undefined, lang: Lang) {
  const base = f?.dict?.source === 'system' ? '/api/blade-system/dict' : '/api/blade-system/dict-biz';
  return useQuery({
    queryKey: ['dict', f?.dict?.source, f?.dict?.code, lang],
    enabled: Boolean(f?.dict),
    staleTime: 60_000,
    queryFn: () => http.get<{ dictKey: string; dictValue: string }[]>(`${base}/dictionary`, { code: f!.dict!.code }),
  });
}

/** Labels of referenced records: one options request per referenced entity (cached). */
function useReferenceLabels(model: EntityModel, rows: Row[]) {
  const refFields = model.list.columns.map((c) => model.fieldMap[c.field]).filter((f) => f?.ref && !f.ref.separator);
  const wanted = refFields.flatMap((f) => [...new Set(rows.map((r) => r[f.name]).filter(Boolean))].map((id) => ({ f, id: String(id) })));
  return useQuery({
    queryKey: ['ref-labels', model.key, wanted.map((w) => `${w.f.name}:${w.id}`).join(',')],
    enabled: wanted.length > 0,
    staleTime: 60_000,
    queryFn: async () => {
      const out: Record<string, string> = {};
      await Promise.all(refFields.map(async (f) => {
        const ids = wanted.filter((w) => w.f === f).map((w) => w.id);
        if (!ids.length) return;
        const target = catalog().entities[f.ref!.entity];
        const page = await http.get<{ records: { value: string; label: string }[] }>(`${target.api}/options`, { ids: ids.join(',') }).catch(() => ({ records: [] }));
        for (const id of ids) out[`${f.name}:${id}`] = page.records.find((r) => r.value === id)?.label ?? id;
      }));
      return out;
    },
  });
}

function DictCell({ field, value }: { field: FieldModel; value: unknown }) {
  const lang = useAtomValue(langAtom);
  const { data } = useDictionary(field, lang);
  const label = data?.find((d) => d.dictKey === String(value))?.dictValue;
  return <>{label ?? String(value ?? '')}</>;
}

function display(field: FieldModel, value: unknown, lang: Lang, refs: Record<string, string> | undefined) {
  if (value === null || value === undefined || value === '') return '';
  if (field.dict) return <DictCell field={field} value={value} />;
  if (field.options) return field.options.find((o) => String(o.value) === String(value))?.label[lang] ?? String(value);
  if (field.ref) return refs?.[`${field.name}:${value}`] ?? String(value);
  if (field.kind === 'decimal' && field.display?.type === 'money') return money.format(Number(value));
  if (field.kind === 'boolean') return value ? (lang === 'en' ? 'Yes' : '是') : lang === 'en' ? 'No' : '否';
  return String(value);
}

function SearchField({ field, lang }: { field: FieldModel; lang: Lang }) {
  const { data } = useDictionary(field.dict ? field : undefined, lang);
  if (field.dict) return <Select allowClear style={{ width: 160 }} options={(data ?? []).map((d) => ({ value: d.dictKey, label: d.dictValue }))} />;
  if (field.options) return <Select allowClear style={{ width: 140 }} options={field.options.map((o) => ({ value: o.value, label: o.label[lang] }))} />;
  return <Input allowClear style={{ width: 180 }} />;
}

function List({ model }: { model: EntityModel }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const permissions = useAtomValue(permissionAtom);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [page, setPage] = useState({ current: 1, size: model.list.pageSize });
  const [selected, setSelected] = useState<string[]>([]);
  const [viewing, setViewing] = useState<Row | null>(null);
  const code = model.menu?.code ?? model.key;
  const can = (action: string) => permissions[`${code}_${action}`] === true;

  const { data, isFetching } = useQuery({
    queryKey: ['list', model.key, filters, page, lang],
    queryFn: () => http.get<{ records: Row[]; total: number }>(`${model.api}/list`, { current: page.current, size: page.size, ...filters }),
  });
  const rows = data?.records ?? [];
  const { data: refs } = useReferenceLabels(model, rows);

  const search = (values: Record<string, unknown>) => {
    const next: Record<string, string> = {};
    for (const s of model.search) {
      const v = values[s.field];
      if (v === undefined || v === null || v === '') continue;
      if (s.operator === 'dateRange' && Array.isArray(v)) {
        const [from, to] = v as [Dayjs, Dayjs];
        next[`${s.field}_datege`] = from.format('YYYY-MM-DD 00:00:00');
        next[`${s.field}_datele`] = to.format('YYYY-MM-DD 23:59:59');
      } else next[s.operator === 'like' ? s.field : `${s.field}_${s.operator}`] = String(v);
    }
    setFilters(next);
    setPage({ ...page, current: 1 });
  };

  const removeSelected = () => {
    if (!selected.length) return message.warning(t('common.selectOne'));
    modal.confirm({
      content: t('common.deleteConfirm'),
      onOk: async () => {
        await http.post(`${model.api}/remove`, undefined, { searchParams: { ids: selected.join(',') } });
        message.success(t('common.deleted'));
        setSelected([]);
        await queryClient.invalidateQueries({ queryKey: ['list', model.key] });
      },
    });
  };

  const exportList = async () => {
    const { blob, filename } = await http.blob(`${model.api}/export`, filters);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = filename;
    a.click();
    URL.revokeObjectURL(a.href);
  };

  const columns = useMemo(() => [
    ...model.list.columns.map((c) => {
      const f = model.fieldMap[c.field];
      return { key: c.field, title: f.label[lang], dataIndex: c.field, width: c.width ?? (f.kind === 'datetime' ? 170 : undefined), ellipsis: true, render: (v: unknown) => display(f, v, lang, refs) };
    }),
    {
      key: '__actions', title: t('common.actions'), width: 90, fixed: 'right' as const,
      render: (_: unknown, row: Row) => <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => setViewing(row)}>{t('common.view')}</Button>,
    },
  ], [model, lang, refs, t]);

  return (
    <CardBox>
      {model.search.length > 0 && (
        <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 12, rowGap: 8 }}>
          {model.search.map((s) => {
            const f = model.fieldMap[s.field];
            return (
              <Form.Item key={s.field} name={s.field} label={s.operator === 'dateRange' && f.name === 'createTime' ? t('common.createTimeRange') : f.label[lang]}>
                {s.operator === 'dateRange' ? <DatePicker.RangePicker /> : <SearchField field={f} lang={lang} />}
              </Form.Item>
            );
          })}
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>{t('common.search')}</Button>
            <Button onClick={() => { form.resetFields(); search({}); }}>{t('common.reset')}</Button>
          </Space>
        </Form>
      )}
      <Space style={{ marginBottom: 12 }}>
        {can('delete') && <Button danger icon={<DeleteOutlined />} onClick={removeSelected}>{t('common.delete')}</Button>}
        {can('export') && model.list.export && <Button icon={<DownloadOutlined />} onClick={() => void exportList()}>{t('common.export')}</Button>}
      </Space>
      <Table
        rowKey="id"
        size="middle"
        loading={isFetching}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 'max-content' }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        pagination={{
          current: page.current, pageSize: page.size, total: data?.total ?? 0, showSizeChanger: true,
          pageSizeOptions: model.list.pageSizes.map(String), showTotal: (total) => t('common.total', { total }),
          onChange: (current, size) => setPage({ current, size }),
        }}
      />
      <Drawer open={viewing !== null} onClose={() => setViewing(null)} width={640} title={model.label[lang]}>
        {viewing && (
          <Descriptions column={1} bordered size="small">
            {model.columns.filter((f) => !f.system || f.name === 'createTime').map((f) => (
              <Descriptions.Item key={f.name} label={f.label[lang]}>{display(f, viewing[f.name], lang, refs)}</Descriptions.Item>
            ))}
          </Descriptions>
        )}
      </Drawer>
    </CardBox>
  );
}

export default function EntityPage({ params }: { params: Record<string, string> }) {
  const t = useT();
  const model = entityForPath(params.path ?? '');
  if (!model) return <Result status="info" title={t('entity.notConfigured')} />;
  return <List key={model.key} model={model} />;
}
