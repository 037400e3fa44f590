// The tenant's key figures: how many records each document type on the user's menu holds,
// counted by the API (no document type is named here: they come from the schemas and the menu).
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic } from 'antd';
import { useAtomValue } from 'jotai';
import type { EntityModel } from '../../engine/model/types.ts';
import { http } from '../api/client.ts';
import { useT } from '../i18n/useT.ts';
import { catalog } from '../renderers/catalog.ts';
import { CardBox } from '../shell/Tile.tsx';
import { pageMenus } from '../state/menus.ts';
import { langAtom, menusAtom } from '../state/session.ts';

const MAX_FIGURES = 8;

function Figure({ model }: { model: EntityModel }) {
  const lang = useAtomValue(langAtom);
  const { data } = useQuery({
    queryKey: ['count', model.key],
    queryFn: () => http.get<{ total: number }>(`${model.api}/list`, { size: 1 }).catch(() => ({ total: NaN })),
  });
  return (
    <Card>
      <Statistic title={model.label[lang]} value={data && Number.isFinite(data.total) ? data.total : '—'} />
    </Card>
  );
}

export default function Dashboard() {
  const t = useT();
  const menus = useAtomValue(menusAtom);
  const paths = new Set(pageMenus(menus).map((m) => m.path));
  const models = Object.values(catalog().entities)
    .filter((m) => m.scope === 'tenant' && m.menu && paths.has(m.menu.path))
    .slice(0, MAX_FIGURES);
  return (
    <CardBox title={t('dashboard.figures')}>
      <Row gutter={[12, 12]}>
        {models.map((m) => (
          <Col key={m.key} xs={24} sm={12} lg={6}>
            <Figure model={m} />
          </Col>
        ))}
      </Row>
    </CardBox>
  );
}
