// The flow diagram of an instance (its finished nodes, the node it waits at, the lines taken) or of
// a definition: model-view's XML drawn by BpmnCanvas, which is loaded — with bpmn-js — only when a
// diagram is shown. Inline on the handle and detail pages, or in the 流程图展示 dialog.
import { useQuery } from '@tanstack/react-query';
import { Alert, Modal, Result, Skeleton } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { lazyWithTimeout } from '../app/lazy.ts';
import { useT } from '../i18n/useT.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { FLOW, type ModelView } from './api.ts';
import { highlightsOf } from './highlights.ts';

const BpmnCanvas = lazy(lazyWithTimeout(() => import('./BpmnCanvas.tsx')));

export interface FlowDiagramProps {
  processInstanceId?: string;
  processDefinitionId?: string;
}

export function FlowDiagram({ processInstanceId, processDefinitionId }: FlowDiagramProps) {
  const http = useHttp();
  const t = useT();
  const [drawError, setDrawError] = useState<string | null>(null);
  const view = useQuery({
    queryKey: ['flow', 'model-view', processInstanceId ?? '', processDefinitionId ?? ''],
    queryFn: () => http.get<ModelView>(`${FLOW}/process/model-view`, processInstanceId ? { processInstanceId } : { processDefinitionId }),
  });
  const highlights = useMemo(() => highlightsOf(view.data?.flow ?? []), [view.data]);
  if (view.isError) return <Alert type="error" showIcon title={t('workflow.diagramFailed', { message: (view.error as Error).message })} />;
  if (!view.data) return <Skeleton active paragraph={{ rows: 5 }} />;
  return (
    <div data-testid="flow-diagram" data-active={highlights.active.join(',')} data-done={highlights.done.join(',')}>
      {drawError && <Alert type="error" showIcon title={t('workflow.diagramFailed', { message: drawError })} />}
      <Suspense fallback={<Skeleton active paragraph={{ rows: 5 }} />}>
        <BpmnCanvas xml={view.data.xml} highlights={highlights} onError={setDrawError} />
      </Suspense>
      <div className="zs-flow-legend">
        <span>
          <i style={{ borderColor: '#52c41a' }} />
          {t('workflow.legend.done')}
        </span>
        <span>
          <i style={{ borderColor: '#fa8c16' }} />
          {t('workflow.legend.active')}
        </span>
      </div>
    </div>
  );
}

export interface FlowDiagramDialogProps extends FlowDiagramProps {
  open?: boolean;
  onClose: () => void;
}

/** The diagram in a dialog titled 流程图展示 / flowchart display. */
export function FlowDiagramDialog({ open = true, onClose, processInstanceId, processDefinitionId }: FlowDiagramDialogProps) {
  const t = useT();
  const known = Boolean(processInstanceId || processDefinitionId);
  return (
    <Modal open={open} title={t('workflow.diagramTitle')} width={960} footer={null} destroyOnHidden onCancel={onClose}>
      {known ? (
        <FlowDiagram processInstanceId={processInstanceId} processDefinitionId={processDefinitionId} />
      ) : (
        <Result status="info" title={t('workflow.noInstance')} />
      )}
    </Modal>
  );
}
