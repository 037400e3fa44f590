// The designer of one process model: the bpmn-js Modeler (ModelerCanvas, loaded on first use)
// beside our properties panel, with 保存 (model/submit) and 部署 (save, then model/deploy; the
// server's refusal — every unsupported element named — is shown above the drawing).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Skeleton, Space, Typography } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { lazyWithTimeout } from '../../app/lazy.ts';
import { useT } from '../../i18n/useT.ts';
import { useHttp } from '../../renderers/http-context.tsx';
import { FLOW } from '../api.ts';
import type { ElementInfo, Write } from './bpmn-props.ts';
import type { ModelerApi } from './ModelerCanvas.tsx';
import { PropertiesPanel, type Option } from './PropertiesPanel.tsx';

const ModelerCanvas = lazy(lazyWithTimeout(() => import('./ModelerCanvas.tsx')));

export interface DraftModel {
  id?: string;
  name: string;
  modelKey: string;
  xml: string;
}

/** Our users (by id) and roles (by alias), the choices for a task's handlers. */
function useHandlerOptions() {
  const http = useHttp();
  const users = useQuery({
    queryKey: ['designer', 'users'],
    queryFn: async () => (await http.get<{ records: Option[] }>('/api/blade-system/user/options', { current: 1, size: 500 })).records,
  });
  const roles = useQuery({
    queryKey: ['designer', 'roles'],
    queryFn: async () => (await http.get<{ records: { roleAlias: string; roleName: string }[] }>('/api/blade-system/role/list', { current: 1, size: 500 })).records
      .map((r) => ({ value: r.roleAlias, label: `${r.roleName} (${r.roleAlias})` })),
  });
  return { users: users.data ?? [], roles: roles.data ?? [] };
}

export function ModelDesigner({ model, onClose }: { model: DraftModel; onClose: () => void }) {
  const t = useT();
  const http = useHttp();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const api = useRef<ModelerApi | null>(null);
  const [id, setId] = useState(model.id);
  const [selected, setSelected] = useState<ElementInfo | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'deploy' | null>(null);
  const [drawError, setDrawError] = useState<string | null>(null);
  const { users, roles } = useHandlerOptions();

  const save = async (): Promise<string> => {
    if (!api.current) throw new Error(t('designer.notReady'));
    const xml = await api.current.xml();
    const saved = await http.post<{ id: string }>(`${FLOW}/model/submit`, { id, name: model.name, modelKey: model.modelKey, xml });
    setId(String(saved.id));
    await queryClient.invalidateQueries({ queryKey: ['designer', 'models'] });
    return String(saved.id);
  };

  const run = async (kind: 'save' | 'deploy') => {
    setBusy(kind);
    setProblem(null);
    try {
      const modelId = await save();
      if (kind === 'deploy') {
        await http.post(`${FLOW}/model/deploy`, { modelId });
        await queryClient.invalidateQueries({ queryKey: ['flow'] });
      }
      void message.success(t(kind === 'save' ? 'designer.saved' : 'designer.deployed'));
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const write = (writes: Write[]) => api.current?.apply(writes);

  return (
    <Card
      data-testid="model-designer"
      title={<Space><Typography.Text strong>{model.name}</Typography.Text><Typography.Text type="secondary">{model.modelKey}</Typography.Text></Space>}
      extra={
        <Space>
          <Button onClick={onClose}>{t('designer.back')}</Button>
          <Button loading={busy === 'save'} disabled={busy !== null} onClick={() => void run('save')}>{t('designer.save')}</Button>
          <Button type="primary" loading={busy === 'deploy'} disabled={busy !== null} onClick={() => void run('deploy')}>{t('designer.deploy')}</Button>
        </Space>
      }
    >
      {problem && <Alert type="error" showIcon closable onClose={() => setProblem(null)} title={t('designer.failed')} description={<span style={{ whiteSpace: 'pre-wrap' }}>{problem}</span>} style={{ marginBottom: 12 }} data-testid="designer-problem" />}
      {drawError && <Alert type="error" showIcon title={drawError} style={{ marginBottom: 12 }} />}
      <Flex gap={12} style={{ height: 'calc(100vh - 260px)', minHeight: 520 }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <ModelerCanvas xml={model.xml} onReady={(a) => { api.current = a; }} onSelect={setSelected} onError={setDrawError} />
          </Suspense>
        </div>
        <div style={{ width: 320, overflowY: 'auto', borderLeft: '1px solid #f0f0f0', paddingLeft: 12 }}>
          <Typography.Title level={5}>{t('designer.properties')}</Typography.Title>
          <PropertiesPanel key={selected?.id ?? ''} info={selected} users={users} roles={roles} onWrite={write} />
        </div>
      </Flex>
    </Card>
  );
}
