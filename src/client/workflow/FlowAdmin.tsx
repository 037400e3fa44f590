// The flow administration's pages: 部署管理 (deployed definitions: search by key, upload .bpmn files to
// deploy, suspend / activate, delete a deployment) and 流程跟踪 (running instances: search by key,
// terminate with a reason). Both are the work-list table with a search, a toolbar and row actions;
// every action asks first, says how it went, and reloads the lists.
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Space, Upload } from 'antd';
import { useState } from 'react';
import { useT } from '../i18n/useT.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { FLOW, type FlowRow } from './api.ts';
import { WorkList } from './WorkList.tsx';

/** Runs a flow call, then toasts its success (and reloads the lists) or the server's refusal. */
function useFlowAction() {
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return async (call: () => Promise<unknown>, success: string): Promise<boolean> => {
    try {
      await call();
      void message.success(success);
      await queryClient.invalidateQueries({ queryKey: ['flow'] });
      return true;
    } catch (err) {
      void message.error(t('workflow.actionFailed', { message: (err as Error).message }));
      return false;
    }
  };
}

/** A key search: the filter goes to the list request under `param`. */
function KeySearch({ param, onSearch }: { param: string; onSearch: (params: Record<string, string>) => void }) {
  const t = useT();
  const [text, setText] = useState('');
  const search = (value: string) => onSearch(value.trim() ? { [param]: value.trim() } : {});
  return (
    <Space>
      <Input
        aria-label={t('workflow.col.key')}
        placeholder={t('workflow.searchKeyPlaceholder')}
        value={text}
        allowClear
        onChange={(e) => setText(e.target.value)}
        onPressEnter={() => search(text)}
        style={{ width: 220 }}
      />
      <Button type="primary" onClick={() => search(text)}>
        {t('workflow.search')}
      </Button>
      <Button
        onClick={() => {
          setText('');
          search('');
        }}
      >
        {t('workflow.reset')}
      </Button>
    </Space>
  );
}

/** 上传部署: .bpmn files sent as multipart `files` to manager/deploy-upload. */
function DeployUpload() {
  const t = useT();
  const http = useHttp();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const deploy = async (file: File) => {
    const form = new FormData();
    form.append('files', file, file.name);
    setBusy(true);
    try {
      if (!http.upload) throw new Error('upload');
      const deployed = await http.upload<FlowRow[]>(`${FLOW}/manager/deploy-upload`, form);
      void message.success(
        t('workflow.deployed', { names: (deployed ?? []).map((d) => `${d.name} v${d.version}`).join('、') || file.name }),
      );
      await queryClient.invalidateQueries({ queryKey: ['flow'] });
    } catch (err) {
      void message.error({ content: t('workflow.deployFailed', { message: (err as Error).message }), duration: 8 });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Upload
      accept=".bpmn,.xml"
      showUploadList={false}
      beforeUpload={(file) => {
        void deploy(file);
        return false;
      }}
    >
      <Button type="primary" loading={busy}>
        {t('workflow.deployUpload')}
      </Button>
    </Upload>
  );
}

const toolbarStyle = { display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 12, flexWrap: 'wrap' } as const;

/** 部署管理 (/flow/manager). */
export function DefinitionManager() {
  const t = useT();
  const http = useHttp();
  const { modal } = App.useApp();
  const run = useFlowAction();
  const [params, setParams] = useState<Record<string, string>>({});
  const names = (row: FlowRow) => ({ name: String(row.name), version: String(row.version) });

  const changeState = (row: FlowRow) => {
    const suspend = row.suspensionState !== 2;
    modal.confirm({
      title: t(suspend ? 'workflow.suspendConfirm' : 'workflow.activateConfirm', names(row)),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () =>
        run(
          () =>
            http.post(`${FLOW}/manager/change-state`, undefined, {
              silent: true,
              searchParams: { state: suspend ? 'suspend' : 'active', processId: row.id },
            }),
          t(suspend ? 'workflow.suspendDone' : 'workflow.activated'),
        ),
    });
  };
  const remove = (row: FlowRow) =>
    modal.confirm({
      title: t('workflow.deleteDeploymentConfirm', names(row)),
      okText: t('common.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () =>
        run(
          () =>
            http.post(`${FLOW}/manager/delete-deployment`, undefined, { searchParams: { deploymentIds: row.deploymentId }, silent: true }),
          t('workflow.deploymentDeleted'),
        ),
    });

  return (
    <WorkList
      kind="manager"
      params={params}
      toolbar={
        <div style={toolbarStyle}>
          <KeySearch param="key" onSearch={setParams} />
          <DeployUpload />
        </div>
      }
      rowActions={(row) => (
        <>
          <Button type="link" size="small" onClick={() => changeState(row)}>
            {t(row.suspensionState === 2 ? 'workflow.doActivate' : 'workflow.doSuspend')}
          </Button>
          <Button type="link" size="small" danger onClick={() => remove(row)}>
            {t('workflow.deleteDeployment')}
          </Button>
        </>
      )}
    />
  );
}

/** The 终止流程 dialog: the reason is required; OK sends follow/delete-process-instance. */
function TerminateDialog({ row, onClose }: { row: FlowRow; onClose: () => void }) {
  const t = useT();
  const http = useHttp();
  const run = useFlowAction();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const terminate = async () => {
    const { reason } = await form.validateFields();
    setBusy(true);
    const done = await run(
      () =>
        http.post(`${FLOW}/follow/delete-process-instance`, undefined, {
          silent: true,
          searchParams: { processInstanceId: row.processInstanceId, deleteReason: reason.trim() },
        }),
      t('workflow.terminated'),
    );
    setBusy(false);
    if (done) onClose();
  };
  return (
    <Modal
      open
      title={t('workflow.terminateTitle')}
      okText={t('workflow.terminate')}
      okButtonProps={{ danger: true, loading: busy }}
      cancelText={t('common.cancel')}
      onOk={() => void terminate().catch(() => undefined)}
      onCancel={onClose}
    >
      <p>{t('workflow.terminateConfirm', { title: String(row.businessTitle || row.processDefinitionName) })}</p>
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('workflow.terminateReason')}
          rules={[{ required: true, whitespace: true, message: t('workflow.terminateReasonRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 流程跟踪 (/flow/follow). */
export function InstanceFollow() {
  const t = useT();
  const [params, setParams] = useState<Record<string, string>>({});
  const [terminating, setTerminating] = useState<FlowRow | null>(null);
  return (
    <>
      <WorkList
        kind="follow"
        params={params}
        toolbar={
          <div style={toolbarStyle}>
            <KeySearch param="processDefinitionKey" onSearch={setParams} />
          </div>
        }
        rowActions={(row) => (
          <Button type="link" size="small" danger onClick={() => setTerminating(row)}>
            {t('workflow.terminate')}
          </Button>
        )}
      />
      {terminating && <TerminateDialog row={terminating} onClose={() => setTerminating(null)} />}
    </>
  );
}
