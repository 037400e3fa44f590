// Every document type of the manifest in each of its views (list, form, detail), over the
// in-memory API with records generated from the schemas: a new schema file shows up here with no
// story written. Storybook mounts it (Gallery.stories.tsx); so does the conformance suite.
import { Empty, Layout, Menu, Segmented, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { langAtom } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import { EntityDetail } from '../detail/index.ts';
import { FakeApi } from '../displays/FakeApi.tsx';
import { EntityScreen } from '../EntityPage.tsx';
import { EntityForm } from '../form/EntityForm.tsx';
import { createFakeHttp, type FakeHttpOptions } from '../testing/fake-http.ts';

export type GalleryView = 'list' | 'form' | 'detail';

export const GALLERY_VIEWS: readonly GalleryView[] = ['list', 'form', 'detail'];

const viewNames: Record<GalleryView, { zh: string; en: string }> = {
  list: { zh: '列表', en: 'List' },
  form: { zh: '表单', en: 'Form' },
  detail: { zh: '详情', en: 'Detail' },
};

/** One entity in one view, on its own in-memory API. */
export function GalleryPane({ model, view, options }: { model: EntityModel; view: GalleryView; options?: FakeHttpOptions }) {
  const http = useMemo(() => createFakeHttp(catalog(), options), [model.key, view, options]);
  const firstId = http.tables.get(model.key)?.[0]?.id;
  return (
    <FakeApi http={http}>
      {view === 'list' && <EntityScreen model={model} />}
      {view === 'form' && <EntityForm model={model} mode="create" onDone={() => undefined} />}
      {view === 'detail' && (firstId ? <EntityDetail model={model} id={String(firstId)} /> : <Empty />)}
    </FakeApi>
  );
}

export function SchemaGallery({ initialEntity, initialView = 'list' }: { initialEntity?: string; initialView?: GalleryView }) {
  const lang = useAtomValue(langAtom);
  const models = Object.values(catalog().entities);
  const [key, setKey] = useState(initialEntity ?? models[0].key);
  const [view, setView] = useState<GalleryView>(initialView);
  const model = catalog().entities[key];
  return (
    <Layout style={{ minHeight: '100vh', background: 'transparent' }}>
      <Layout.Sider width={220} theme="light" style={{ overflow: 'auto' }}>
        <Menu
          mode="inline"
          selectedKeys={[key]}
          onClick={(e) => setKey(e.key)}
          items={models.map((m) => ({ key: m.key, label: `${m.label[lang]} (${m.key})` }))}
        />
      </Layout.Sider>
      <Layout.Content style={{ padding: 16 }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {model.label[lang]} <Typography.Text type="secondary">{model.file}</Typography.Text>
        </Typography.Title>
        <Segmented
          value={view}
          onChange={(v) => setView(v as GalleryView)}
          options={GALLERY_VIEWS.map((v) => ({ value: v, label: viewNames[v][lang] }))}
          style={{ marginBottom: 16 }}
        />
        <GalleryPane key={`${key}-${view}`} model={model} view={view} />
      </Layout.Content>
    </Layout>
  );
}
