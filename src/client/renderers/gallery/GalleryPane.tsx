// One document type in one view (list, form, detail) over the in-memory API with records generated
// from the schemas. Storybook's entry per document type (.storybook/documents.ts) mounts it, so a
// new schema file shows up there with no story written.
import { Empty } from 'antd';
import { useMemo } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { EntityDetail } from '../detail/index.ts';
import { FakeApi } from '../displays/FakeApi.tsx';
import { EntityScreen } from '../EntityPage.tsx';
import { EntityForm } from '../form/EntityForm.tsx';
import { createFakeHttp, type FakeHttpOptions } from '../testing/fake-http.ts';

export type GalleryView = 'list' | 'form' | 'detail';

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
