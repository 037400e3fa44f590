import { Table } from 'antd';
import { useT } from '../i18n/useT.ts';
import { CardBox } from '../shell/Tile.tsx';

const MOCK = [
  { key: 1, name: '测试项目甲', amount: '1,200,000.00' },
  { key: 2, name: '测试项目乙', amount: '860,500.50' },
];

export default function TestPage() {
  const t = useT();
  return (
    <CardBox title={t('title.test')}>
      <p>{t('test.text')}</p>
      <Table
        size="small"
        dataSource={MOCK}
        pagination={false}
        columns={[
          { title: 'name', dataIndex: 'name' },
          { title: 'amount', dataIndex: 'amount' },
        ]}
      />
    </CardBox>
  );
}
