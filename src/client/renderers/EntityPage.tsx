// The screen of any document type, from its schema alone: the list, and over it the form (a dialog,
// or a page for x-layout container "page") and the read-only detail (a drawer). The route gives the
// entity by its menu path, its query (`?projectId=…&expenditureContractType=…`) the search the list
// opens with (list/urlFilters.ts), and its fragment what is open over the list (#edit=<id>: opened.ts);
// the gallery and tests mount EntityScreen with a model directly.
import { Drawer, Result } from 'antd';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import type { EntityModel } from '../../engine/model/types.ts';
import { lazyWithTimeout } from '../app/lazy.ts';
import { useT } from '../i18n/useT.ts';
import { appStore, langAtom, permissionAtom } from '../state/session.ts';
import { CardBox } from '../shell/Tile.tsx';
import { entityForPath } from './catalog.ts';
import { EntityDetail } from './detail/index.ts';
import type { Row } from './extensions.ts';
import { FormDialog } from './form/FormDialog.tsx';
import { FormPage } from './form/FormPage.tsx';
import { EntityList } from './list/index.ts';
import { isPrintable, PrintButton } from './print/index.ts';
import { searchValuesFromUrl } from './list/urlFilters.ts';
import { firstListRequest, listQuery, listsAsTree } from './list/useListQuery.ts';
import { grantedAction } from './list/useListActions.tsx';
import { openedFromHash, writeHash, type Opened } from './opened.ts';
import { readRecord } from './data.ts';
import { earlyHttp, type Prefetch } from '../app/prefetch.ts';
import { useHttp } from './http-context.tsx';

// a contract's or settlement's printed form: its code loads when such a document is opened, not with every list
const PrintDocument = lazy(lazyWithTimeout(() => import('./print/PrintDocument.tsx').then((m) => ({ default: m.PrintDocument }))));

/** A detail drawer wide enough for the schema: documents with rows get most of the screen. */
const drawerWidth = (model: EntityModel) => (model.details.length ? '80%' : Math.max(640, model.layout.width ?? 0));

/** Whether what is open is a form shown as a page, in place of the list (x-layout container "page"). */
const opensAsPage = (model: EntityModel, opened: Opened) => model.layout.container === 'page' && opened !== null && opened.mode !== 'view';

/**
 * `addressed`: the screen is the page at the address, whose fragment it opens from and keeps up to
 * date (a reload brings back the open form); the gallery's and tests' screens leave the address alone.
 */
export function EntityScreen({ model, search = '', addressed = false }: { model: EntityModel; search?: string; addressed?: boolean }) {
  const initialSearch = useMemo(() => searchValuesFromUrl(model, search), [model, search]);
  const lang = useAtomValue(langAtom);
  const permissions = useAtomValue(permissionAtom);
  const [opened, setOpened] = useState<Opened>(() =>
    addressed ? openedFromHash(window.location.hash, (action) => grantedAction(model, permissions, action)) : null,
  );
  const show = useCallback(
    (next: Opened) => {
      setOpened(next);
      if (addressed) writeHash(next);
    },
    [addressed],
  );
  const http = useHttp();
  // stable, so that the list under a form does not render again as the form opens and closes
  const open = useCallback(
    (mode: 'create' | 'edit' | 'view', row?: Row) => {
      const id = row?.id === undefined ? undefined : String(row.id);
      // the record leaves with the click, while the form or the detail renders (it takes the answer)
      if (id && mode !== 'create') readRecord(earlyHttp(http), model, id).catch(() => undefined);
      show({ mode, id });
    },
    [http, model, show],
  );
  const close = useCallback(() => show(null), [show]);
  const editing = opened && opened.mode !== 'view' ? { mode: opened.mode as 'create' | 'edit', id: opened.id } : null;
  const formOnPage = opensAsPage(model, opened);
  // a page form the address opened (a reload) has no list under it to keep: the list mounts once it closes
  const [listMounted, setListMounted] = useState(!formOnPage);
  if (!formOnPage && !listMounted) setListMounted(true);
  // contracts and settlements print: 打印 in the drawer, their printed form kept beside it (renderers/print)
  const printable = isPrintable(model);

  return (
    <>
      {/* the list stays mounted under a page form, so its filters and page survive the edit */}
      {listMounted && (
        <div hidden={formOnPage}>
          <CardBox>
            <EntityList model={model} onOpen={open} initialSearch={initialSearch} />
          </CardBox>
        </div>
      )}
      {editing && formOnPage && <FormPage model={model} mode={editing.mode} id={editing.id} onClose={close} />}
      {editing && !formOnPage && <FormDialog model={model} mode={editing.mode} id={editing.id} onClose={close} />}
      <Drawer
        open={opened?.mode === 'view'}
        onClose={close}
        size={drawerWidth(model)}
        title={model.label[lang]}
        extra={printable && opened?.mode === 'view' ? <PrintButton /> : undefined}
        destroyOnHidden
      >
        {opened?.mode === 'view' && opened.id && <EntityDetail model={model} id={opened.id} />}
        {/* a contract's or settlement's printed form, shown alone when the page is printed */}
        {printable && opened?.mode === 'view' && opened.id && (
          <Suspense fallback={null}>
            <PrintDocument model={model} id={opened.id} />
          </Suspense>
        )}
      </Drawer>
    </>
  );
}

/**
 * A page load's first requests of a document page (app/prefetch.ts): the record its fragment opens
 * (a form or detail reloaded), and its list's first page as the list will ask for it, unless a page
 * form stands in its place.
 */
export const prefetch: Prefetch = ({ params, search, hash, http }) => {
  const model = entityForPath(params.path ?? '');
  if (!model) return;
  const permissions = appStore.get(permissionAtom);
  const opened = openedFromHash(hash, (action) => grantedAction(model, permissions, action));
  if (opened?.id) readRecord(http, model, opened.id).catch(() => undefined); // the form or detail asks for itself and shows the failure
  if (opensAsPage(model, opened)) return; // its list mounts once the form closes
  const request = firstListRequest(model, searchValuesFromUrl(model, search));
  if (!listsAsTree(model, request.filters)) void listQuery(http, model, request).queryFn();
};

export default function EntityPage({ params }: { params: Record<string, string> }) {
  const t = useT();
  const search = useSearch();
  const model = entityForPath(params.path ?? '');
  if (!model) return <Result status="info" title={t('entity.notConfigured')} />;
  // a new address (a dashboard's link to other filters) opens the list afresh with its filters
  return <EntityScreen key={`${model.key}?${search}`} model={model} search={search} addressed />;
}
