// The designer of one process model: the bpmn-js Modeler (ModelerCanvas, loaded on first use)
// beside our properties panel — the selected element's, or with nothing selected the process's own
// (name, key, category from the flow dictionary, description) — with 保存 (model/submit) and 部署
// (save, then model/deploy). After every change the engine's deploy-time checks run in the browser:
// their problems are listed, each naming its element, and 部署 waits until there are none (the
// server's refusal, should it still come, is shown above the drawing).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Alert, App, Button, Card, Flex, Form, Input, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { lazyWithTimeout } from '../../app/lazy.ts';
import { nodesOf } from '../../../engine/tree/forest.ts';
import { useT } from '../../i18n/useT.ts';
import { useDictionary } from '../../renderers/data.ts';
import { useHttp } from '../../renderers/http-context.tsx';
import { langAtom } from '../../state/session.ts';
import { FLOW } from '../api.ts';
import type { ElementInfo, Write } from './bpmn-props.ts';
import { modelProblems } from './model-check.ts';
import type { ModelerApi } from './ModelerCanvas.tsx';
import { PropertiesPanel, type Option } from './PropertiesPanel.tsx';

const ModelerCanvas = lazy(lazyWithTimeout(() => import('./ModelerCanvas.tsx')));

export interface DraftModel {
  id?: string;
  name: string;
  modelKey: string;
  xml: string;
  /** flow_<key> of the flow dictionary */
  category?: string;
  description?: string;
}

/** The process's own properties, edited when nothing is selected and written into the model on save. */
export interface ProcessProps {
  name: string;
  modelKey: string;
  category: string;
  description: string;
}

export const MODEL_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;

const FLOW_CATEGORIES = { code: 'flow', source: 'system', multiple: false } as const;

/** The check's state: null while it runs. */
type Problems = string[] | null;

/** Runs the engine's checks on the drawing after each change (debounced), in the user's language. */
function useModelCheck(api: React.RefObject<ModelerApi | null>) {
  const lang = useAtomValue(langAtom);
  const [problems, setProblems] = useState<Problems>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(0);
  const check = async (): Promise<string[]> => {
    if (!api.current) return [];
    const run = ++latest.current;
    setProblems(null);
    const found = await modelProblems(await api.current.xml(), lang);
    if (run === latest.current) setProblems(found);
    return found;
  };
  const schedule = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void check(), 300);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => schedule(), [lang]);
  return { problems, check, schedule };
}

interface RoleNode {
  roleAlias: string;
  roleName: string;
  children?: RoleNode[];
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
    queryFn: async () =>
      nodesOf(await http.get<RoleNode[]>('/api/blade-system/role/list')).map((r) => ({
        value: r.roleAlias,
        label: `${r.roleName} (${r.roleAlias})`,
      })),
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
  const [props, setProps] = useState<ProcessProps>({
    name: model.name,
    modelKey: model.modelKey,
    category: model.category ?? '',
    description: model.description ?? '',
  });
  const { problems, check, schedule } = useModelCheck(api);
  const propsValid = props.name.trim() !== '' && MODEL_KEY.test(props.modelKey);

  /** The process properties go into the drawing (process id = key, name, documentation) before it is saved. */
  const save = async (): Promise<string> => {
    if (!api.current) throw new Error(t('designer.notReady'));
    const current = api.current.process();
    const description = props.description.trim();
    if (current.id !== props.modelKey || current.name !== props.name.trim() || current.description !== description) {
      api.current.updateProcess({ id: props.modelKey, name: props.name.trim(), description });
    }
    const xml = await api.current.xml();
    const saved = await http.post<{ id: string }>(
      `${FLOW}/model/submit`,
      {
        id,
        name: props.name.trim(),
        modelKey: props.modelKey,
        category: props.category || undefined,
        description: description || undefined,
        xml,
      },
      { silent: true },
    );
    setId(String(saved.id));
    await queryClient.invalidateQueries({ queryKey: ['designer', 'models'] });
    return String(saved.id);
  };

  const run = async (kind: 'save' | 'deploy') => {
    setBusy(kind);
    setProblem(null);
    try {
      const modelId = await save();
      // a draft may hold anything; a deployment only what the engine runs
      if (kind === 'deploy' && (await check()).length) return;
      if (kind === 'deploy') {
        // the designer shows a refusal beside the model (designer-problem), once: no toast too
        await http.post(`${FLOW}/model/deploy`, { modelId }, { silent: true });
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
      title={
        <Space>
          <Typography.Text strong>{props.name}</Typography.Text>
          <Typography.Text type="secondary">{props.modelKey}</Typography.Text>
          <CheckTag problems={problems} />
        </Space>
      }
      extra={
        <Space>
          <Button onClick={onClose}>{t('designer.back')}</Button>
          <Button loading={busy === 'save'} disabled={busy !== null} onClick={() => void run('save')}>
            {t('designer.save')}
          </Button>
          <Button
            type="primary"
            loading={busy === 'deploy'}
            disabled={busy !== null || !propsValid || problems === null || problems.length > 0}
            onClick={() => void run('deploy')}
          >
            {t('designer.deploy')}
          </Button>
        </Space>
      }
    >
      {problem && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setProblem(null)}
          title={t('designer.failed')}
          description={<span style={{ whiteSpace: 'pre-wrap' }}>{problem}</span>}
          style={{ marginBottom: 12 }}
          data-testid="designer-problem"
        />
      )}
      {drawError && <Alert type="error" showIcon title={drawError} style={{ marginBottom: 12 }} />}
      {problems && problems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="designer-check"
          style={{ marginBottom: 12 }}
          title={t('designer.check.problems', { count: problems.length })}
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          }
        />
      )}
      <Flex gap={12} style={{ height: 'calc(100vh - 260px)', minHeight: 520 }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <ModelerCanvas
              xml={model.xml}
              onReady={(a) => {
                api.current = a;
              }}
              onSelect={setSelected}
              onError={setDrawError}
              onChange={schedule}
            />
          </Suspense>
        </div>
        <div style={{ width: 320, overflowY: 'auto', borderLeft: '1px solid #f0f0f0', paddingLeft: 12 }}>
          <Typography.Title level={5}>{t(selected ? 'designer.properties' : 'designer.process')}</Typography.Title>
          {selected ? (
            <PropertiesPanel key={selected.id} info={selected} users={users} roles={roles} onWrite={write} />
          ) : (
            <ProcessPanel value={props} onChange={setProps} />
          )}
        </div>
      </Flex>
    </Card>
  );
}

function CheckTag({ problems }: { problems: Problems }) {
  const t = useT();
  if (problems === null) return <Tag>{t('designer.check.running')}</Tag>;
  return problems.length ? (
    <Tag color="error">{t('designer.check.count', { count: problems.length })}</Tag>
  ) : (
    <Tag color="success">{t('designer.check.ok')}</Tag>
  );
}

/** Name, key, category (the flow dictionary) and description of the process itself. */
export function ProcessPanel({ value, onChange }: { value: ProcessProps; onChange: (next: ProcessProps) => void }) {
  const t = useT();
  const categories = useDictionary(FLOW_CATEGORIES);
  const set = (patch: Partial<ProcessProps>) => onChange({ ...value, ...patch });
  const keyError = !value.modelKey ? t('designer.keyRequired') : MODEL_KEY.test(value.modelKey) ? undefined : t('designer.keyPattern');
  return (
    <Form layout="vertical" data-testid="process-panel">
      <Form.Item
        label={t('designer.processName')}
        required
        validateStatus={value.name.trim() ? undefined : 'error'}
        help={value.name.trim() ? undefined : t('designer.nameRequired')}
      >
        <Input value={value.name} maxLength={200} onChange={(e) => set({ name: e.target.value })} />
      </Form.Item>
      <Form.Item label={t('designer.processKey')} required validateStatus={keyError ? 'error' : undefined} help={keyError}>
        <Input value={value.modelKey} maxLength={100} onChange={(e) => set({ modelKey: e.target.value.trim() })} />
      </Form.Item>
      <Form.Item label={t('designer.category')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={categories.isLoading}
          value={value.category ? value.category.replace(/^flow_/, '') : undefined}
          options={categories.data ?? []}
          onChange={(key?: string) => set({ category: key ? `flow_${key}` : '' })}
        />
      </Form.Item>
      <Form.Item label={t('designer.description')}>
        <Input.TextArea value={value.description} rows={3} maxLength={1000} onChange={(e) => set({ description: e.target.value })} />
      </Form.Item>
    </Form>
  );
}
