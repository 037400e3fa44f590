// 模型设计 (/flow/model): the tenant's process models — name, key, version, last change — with
// 新建 (from the simple template, or a copy of a deployed process such as a document's default
// approval), 设计, 部署 and 删除; 设计 and 新建 open the designer in place of the list.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Select, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useT } from '../../i18n/useT.ts';
import { useHttp } from '../../renderers/http-context.tsx';
import { CardBox } from '../../shell/Tile.tsx';
import { FLOW, type FlowPage, type FlowRow, type ModelView } from '../api.ts';
import { PagedTable } from '../PagedTable.tsx';
import { newModelXml, withProcessKey } from './bpmn-props.ts';
import { MODEL_KEY, ModelDesigner, type DraftModel } from './ModelDesigner.tsx';

const BLANK = '';

export default function ModelPage() {
  const http = useHttp();
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<DraftModel | null>(null);
  const [creating, setCreating] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const open = async (row: FlowRow) => {
    try {
      const detail = await http.get<FlowRow>(`${FLOW}/model/detail`, { id: row.id }, { silent: true });
      setEditing({
        id: String(detail.id),
        name: detail.name,
        modelKey: detail.modelKey,
        xml: detail.modelEditorXml,
        category: detail.category,
        description: detail.description,
      });
    } catch (err) {
      void message.error((err as Error).message);
    }
  };
  const deploy = async (row: FlowRow) => {
    setProblem(null);
    try {
      await http.post(`${FLOW}/model/deploy`, { modelId: row.id }, { silent: true });
      await queryClient.invalidateQueries({ queryKey: ['flow'] });
      void message.success(t('designer.deployed'));
    } catch (err) {
      setProblem((err as Error).message);
    }
  };
  const remove = async (row: FlowRow) => {
    try {
      await http.post(`${FLOW}/model/remove`, undefined, { searchParams: { ids: row.id }, silent: true });
      await queryClient.invalidateQueries({ queryKey: ['designer', 'models'] });
      void message.success(t('designer.removed'));
    } catch (err) {
      void message.error((err as Error).message);
    }
  };

  if (editing) return <ModelDesigner model={editing} onClose={() => setEditing(null)} />;

  const columns: TableColumnsType<FlowRow> = [
    { key: 'name', dataIndex: 'name', title: t('designer.col.name') },
    { key: 'modelKey', dataIndex: 'modelKey', title: t('designer.col.key') },
    { key: 'version', dataIndex: 'version', title: t('designer.col.version'), render: (v) => `v${v}` },
    { key: 'lastUpdated', dataIndex: 'lastUpdated', title: t('designer.col.updated') },
    {
      key: 'actions',
      title: t('designer.col.action'),
      render: (_, row) => (
        <Space size={4}>
          <Button type="link" size="small" onClick={() => void open(row)}>
            {t('designer.edit')}
          </Button>
          <Button type="link" size="small" onClick={() => void deploy(row)}>
            {t('designer.deploy')}
          </Button>
          <Popconfirm title={t('designer.removeConfirm')} onConfirm={() => remove(row)}>
            <Button type="link" size="small" danger>
              {t('designer.remove')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <CardBox>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => setCreating(true)}>
          {t('designer.add')}
        </Button>
      </Space>
      {problem && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setProblem(null)}
          title={t('designer.failed')}
          description={<span style={{ whiteSpace: 'pre-wrap' }}>{problem}</span>}
          style={{ marginBottom: 12 }}
        />
      )}
      <PagedTable
        testId="model-list"
        queryKey={['designer', 'models']}
        load={(paging) => http.get<FlowPage>(`${FLOW}/model/list`, { ...paging })}
        columns={columns}
        rowKey={(row) => String(row.id)}
      />
      {creating && (
        <NewModelDialog
          onClose={() => setCreating(false)}
          onCreate={(draft) => {
            setCreating(false);
            setEditing(draft);
          }}
        />
      )}
    </CardBox>
  );
}

interface NewModelValues {
  basis: string;
  name: string;
  modelKey: string;
}

/** Name, key and what to start from: the simple template or a deployed process. */
function NewModelDialog({ onClose, onCreate }: { onClose: () => void; onCreate: (draft: DraftModel) => void }) {
  const http = useHttp();
  const t = useT();
  const [form] = Form.useForm<NewModelValues>();
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const deployed = useQuery({
    queryKey: ['flow', 'manager', 'designer-basis'],
    queryFn: () => http.get<FlowPage>(`${FLOW}/manager/list`, { current: 1, size: 200 }),
  });
  const definitions = deployed.data?.records ?? [];
  const pickBasis = (id: string) => {
    const d = definitions.find((r) => String(r.id) === id);
    if (d) form.setFieldsValue({ name: d.name, modelKey: d.key });
  };
  const submit = async (values: NewModelValues) => {
    setLoading(true);
    setFailure(null);
    try {
      const xml =
        values.basis === BLANK
          ? newModelXml(values.modelKey, values.name, t('designer.templateTask'))
          : withProcessKey(
              (await http.get<ModelView>(`${FLOW}/process/model-view`, { processDefinitionId: values.basis })).xml,
              values.modelKey,
            );
      // a copy keeps the category of the process it starts from
      const category = definitions.find((d) => String(d.id) === values.basis)?.category;
      onCreate({ name: values.name, modelKey: values.modelKey, xml, category: category || undefined });
    } catch (err) {
      setFailure((err as Error).message);
    } finally {
      setLoading(false);
    }
  };
  return (
    <Modal open title={t('designer.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={loading} destroyOnHidden>
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" initialValues={{ basis: BLANK, name: '', modelKey: '' }} onFinish={(v) => void submit(v)}>
        <Form.Item name="basis" label={t('designer.basis')}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={deployed.isLoading}
            onChange={pickBasis}
            options={[
              { value: BLANK, label: t('designer.basisTemplate') },
              ...definitions.map((d) => ({ value: String(d.id), label: `${d.name} (${d.key} v${d.version})` })),
            ]}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('designer.col.name')}
          rules={[{ required: true, whitespace: true, message: t('designer.nameRequired') }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="modelKey"
          label={t('designer.col.key')}
          rules={[
            { required: true, message: t('designer.keyRequired') },
            { pattern: MODEL_KEY, message: t('designer.keyPattern') },
          ]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
