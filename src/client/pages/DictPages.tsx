// Dictionary management in two arrangements: dictionaries beside their entries (horizontal) or
// above them (vertical).
import { useQuery } from '@tanstack/react-query';
import { Col, Row, Table } from 'antd';
import { useState } from 'react';
import { http } from '../api/client.ts';
import { useT } from '../i18n/useT.ts';
import { CardBox } from '../shell/Tile.tsx';

type Dict = { id: string; code: string; dictKey: string; dictValue: string; sort: number; isSealed: number };

function useParentDicts() {
  return useQuery({
    queryKey: ['dict-parents'],
    queryFn: () => http.get<{ records: Dict[] }>('/api/blade-system/dict/parent-list', { size: 200, ascs: 'sort' }),
  });
}

function Parents({ selected, onSelect }: { selected: string | null; onSelect: (id: string) => void }) {
  const t = useT();
  const { data, isFetching } = useParentDicts();
  return (
    <CardBox title={t('dict.parents')}>
      <Table rowKey="id" size="small" loading={isFetching} dataSource={data?.records ?? []} pagination={{ pageSize: 10 }}
        rowClassName={(r) => (r.id === selected ? 'ant-table-row-selected' : '')}
        onRow={(r) => ({ onClick: () => onSelect(r.id), style: { cursor: 'pointer' } })}
        columns={[{ title: '字典编号 / Code', dataIndex: 'code' }, { title: '字典名称 / Name', dataIndex: 'dictValue' }]} />
    </CardBox>
  );
}

function Children({ parentId }: { parentId: string | null }) {
  const t = useT();
  const { data, isFetching } = useQuery({
    queryKey: ['dict-children', parentId],
    enabled: parentId !== null,
    queryFn: () => http.get<{ records: Dict[] }>('/api/blade-system/dict/child-list', { parentId: parentId!, size: 200 }),
  });
  return (
    <CardBox title={t('dict.children')}>
      <Table rowKey="id" size="small" loading={isFetching} dataSource={data?.records ?? []} pagination={false}
        columns={[{ title: '字典键值 / Key', dataIndex: 'dictKey' }, { title: '字典名称 / Name', dataIndex: 'dictValue' }, { title: '排序 / Sort', dataIndex: 'sort' }, { title: '封存 / Sealed', dataIndex: 'isSealed', render: (v: number) => (v ? '是' : '否') }]} />
    </CardBox>
  );
}

export function DictHorizontal() {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <Row gutter={12}>
      <Col span={12}><Parents selected={selected} onSelect={setSelected} /></Col>
      <Col span={12}><Children parentId={selected} /></Col>
    </Row>
  );
}

export function DictVertical() {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <>
      <Parents selected={selected} onSelect={setSelected} />
      <Children parentId={selected} />
    </>
  );
}
