// The approval buttons of a document list (registered by register.ts for every entity with
// x-workflow): 提交 (POST <api>/submit {id}), 撤回 (POST <api>/recall?id=) and 流程图 (the
// instance in the document's instance field), each a dialog over the clicked row. 提交 first shows
// what the registry's submit checks find (the cost rules: the warnings the submission will record),
// and asks whether to submit anyway.
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Modal } from 'antd';
import { Fragment, useState } from 'react';
import { useT } from '../i18n/useT.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { useRegistry } from '../renderers/registry.ts';
import { FLOW, type HistoryEntry } from './api.ts';
import { FlowDiagramDialog } from './FlowDiagram.tsx';

type Confirmed = 'submit' | 'recall';

function ConfirmDialog({ model, rows, onClose, action }: ActionDialogProps & { action: Confirmed }) {
  const http = useHttp();
  const t = useT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const id = String(rows[0]?.id ?? '');
  const run = async () => {
    setBusy(true);
    try {
      // the dialog shows a refusal itself, once (the client's own toast stays silent)
      if (action === 'submit') await http.post(`${model.api}/submit`, { id }, { silent: true });
      else await http.post(`${model.api}/recall`, undefined, { searchParams: { id }, silent: true });
      void message.success(t(action === 'submit' ? 'workflow.submitted' : 'workflow.recalled'));
      onClose(true);
    } catch (err) {
      void message.error((err as Error).message);
      setBusy(false);
    }
  };
  const field = model.workflow?.instanceField;
  const tooLate = useActedOn(action === 'recall' && field ? String(rows[0]?.[field] ?? '') : '');
  const checks = (useRegistry().submitChecks ?? []).map((check) => check({ model, id, active: action === 'submit' }));
  const found = checks.filter((c) => c.content);
  return (
    <Modal
      open
      width={found.length ? 640 : undefined}
      title={t(action === 'submit' ? 'workflow.submit' : 'workflow.recall')}
      confirmLoading={busy}
      okButtonProps={{
        disabled: tooLate || checks.some((c) => c.pending || c.refused),
        danger: checks.some((c) => c.danger),
      }}
      onOk={() => void run()}
      onCancel={() => onClose(false)}
    >
      {tooLate ? (
        <Alert type="warning" showIcon title={t('workflow.recallTooLate')} />
      ) : found.length ? (
        found.map((c, i) => <Fragment key={i}>{c.content}</Fragment>)
      ) : (
        t(action === 'submit' ? 'workflow.submitConfirm' : 'workflow.recallConfirm')
      )}
    </Modal>
  );
}

/** Whether a handler already completed a task of the instance (then the submitter can no longer recall it). */
function useActedOn(processInstanceId: string): boolean {
  const http = useHttp();
  const history = useQuery({
    queryKey: ['flow', 'history', processInstanceId],
    queryFn: () => http.get<HistoryEntry[]>(`${FLOW}/process/history-flow-list`, { processInstanceId }),
    enabled: processInstanceId !== '',
    staleTime: 0,
  });
  return (history.data ?? []).some((h) => h.historyActivityType === 'userTask' && Boolean(h.endTime));
}

export function SubmitDialog(props: ActionDialogProps) {
  return <ConfirmDialog {...props} action="submit" />;
}

export function RecallDialog(props: ActionDialogProps) {
  return <ConfirmDialog {...props} action="recall" />;
}

export function DiagramDialog({ model, rows, onClose }: ActionDialogProps) {
  const field = model.workflow?.instanceField;
  const instance = field ? rows[0]?.[field] : undefined;
  return <FlowDiagramDialog processInstanceId={instance ? String(instance) : undefined} onClose={() => onClose(false)} />;
}
