// The tenant's key figures, counted by the API: projects, owners, goods, material plans.
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { http } from '../api/client.ts';
import { useT } from '../i18n/useT.ts';
import { CardBox } from '../shell/Tile.tsx';
import { useAtomValue } from 'jotai';
import { langAtom } from '../state/session.ts';

const FIGURES = [
  { url: '/api/construct/project/list', zh: '项目', en: 'Projects' },
  { url: '/api/construct/partyA/list', zh: '甲方单位', en: 'Clients' },
  { url: '/api/construct/goodsArchives/list', zh: '物资档案', en: 'Goods' },
  { url: '/api/construct/materialTotalDemand/list', zh: '材料总计划', en: 'Material plans' },
];

function Figure({ url, title }: { url: string; title: string }) {
  const { data } = useQuery({ queryKey: ['count', url], queryFn: () => http.get<{ total: number }>(url, { size: 1 }).catch(() => ({ total: NaN })) });
  return <Card><Statistic title={title} value={data && Number.isFinite(data.total) ? data.total : '—'} /></Card>;
}

export default function Dashboard() {
  const t = useT();
  const lang = useAtomValue(langAtom);
  return (
    <CardBox title={t('dashboard.figures')}>
      <Row gutter={[12, 12]}>
        {FIGURES.map((f) => <Col key={f.url} xs={24} sm={12} lg={6}><Figure url={f.url} title={lang === 'en' ? f.en : f.zh} /></Col>)}
      </Row>
    </CardBox>
  );
}
