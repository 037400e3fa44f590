// Code generation's review: the schema a code setting generates (POST gen-code), shown as JSON and
// as the form and list the renderers make of it (on sample data, see preview-http.ts), downloadable,
// and written into the deployment by the platform administrator (POST install), after which this
// browser loads the new schema set, menus and buttons: the new type's page opens at once, no rebuild.
import { App as AntApp, Alert, Button, Modal, Space, Spin, Tabs } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { JsonSchema } from '../../engine/model/types.ts';
import { useT } from '../i18n/useT.ts';
import { fetchSchemaSet, loadMenus, loadPermissions } from '../app/bootstrap.ts';
import { loadCatalog, previewCatalog } from '../renderers/catalog.ts';
import { EntityForm } from '../renderers/form/EntityForm.tsx';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { HttpProvider, useHttp } from '../renderers/http-context.tsx';
import { EntityList } from '../renderers/list/index.ts';
import { saveFile } from '../renderers/list/useListActions.tsx';
import { previewHttp } from './preview-http.ts';

interface Generated {
  key: string;
  file: string;
  schema: JsonSchema;
  issues: string[];
}

function Preview({ generated }: { generated: Generated }) {
  const t = useT();
  const http = useHttp();
  const built = useMemo(() => {
    try {
      const catalog = previewCatalog(generated.file, generated.key, generated.schema);
      const model = catalog.entities[generated.key];
      return { model, http: previewHttp(http, catalog, model) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }, [generated, http]);
  if ('error' in built) return <Alert type="error" title={t('develop.issues')} description={<pre>{built.error}</pre>} />;
  return (
    <HttpProvider value={built.http}>
      <Tabs
        items={[
          { key: 'form', label: t('develop.formTab'), children: <EntityForm model={built.model} mode="create" onDone={() => undefined} /> },
          { key: 'list', label: t('develop.listTab'), children: <EntityList model={built.model} onOpen={() => undefined} /> },
        ]}
      />
    </HttpProvider>
  );
}

export default function CodePreviewDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const http = useHttp();
  const { message, modal } = AntApp.useApp();
  const code = rows[0];
  const [tab, setTab] = useState('preview');
  const generated = useQuery({
    queryKey: ['gen-code', code.id],
    gcTime: 0,
    queryFn: async () => (await http.post<Generated[]>(`${model.api}/gen-code`, undefined, { searchParams: { ids: String(code.id) } }))[0],
  });
  const install = useMutation({
    mutationFn: async () => {
      const done = await http.post<{ file: string; api: string }>(`${model.api}/install`, undefined, {
        searchParams: { id: String(code.id) },
      });
      await Promise.all([loadCatalog(fetchSchemaSet), loadMenus(), loadPermissions()]);
      return done;
    },
    onSuccess: (done) => void message.success(t('develop.installed', { file: done.file, api: done.api })),
  });
  const download = async () => {
    const { blob, filename } = await http.blob(`${model.api}/download`, { id: String(code.id) });
    saveFile(blob, filename);
  };
  const data = generated.data;
  const confirmInstall = () =>
    modal.confirm({
      title: t('develop.install'),
      content: t('develop.installConfirm', { file: data?.file ?? '' }),
      onOk: () => install.mutateAsync(),
    });
  return (
    <Modal
      open
      width={1100}
      title={`${t('develop.generate')}: ${String(code.codeName)}`}
      onCancel={() => onClose(false)}
      footer={null}
      destroyOnHidden
    >
      {generated.isError && <Alert type="error" title={(generated.error as Error).message} />}
      {!data && !generated.isError && <Spin />}
      {data && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <code>{data.file}</code>
            <Button onClick={() => void download()}>{t('develop.download')}</Button>
            <Button type="primary" disabled={data.issues.length > 0} loading={install.isPending} onClick={confirmInstall}>
              {t('develop.install')}
            </Button>
          </Space>
          {data.issues.length > 0 && (
            <Alert
              type="error"
              title={t('develop.issues')}
              description={
                <ul>
                  {data.issues.map((i) => (
                    <li key={i}>{i}</li>
                  ))}
                </ul>
              }
            />
          )}
          <Alert type="info" title={t('develop.previewNote')} />
          <Tabs
            activeKey={tab}
            onChange={setTab}
            items={[
              { key: 'preview', label: t('develop.previewTab'), children: data.issues.length ? null : <Preview generated={data} /> },
              {
                key: 'schema',
                label: t('develop.schemaTab'),
                children: (
                  <pre className="zs-generated-schema" style={{ maxHeight: 480, overflow: 'auto' }}>
                    {JSON.stringify(data.schema, null, 2)}
                  </pre>
                ),
              },
            ]}
          />
        </Space>
      )}
    </Modal>
  );
}
