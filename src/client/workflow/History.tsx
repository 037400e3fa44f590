// An instance's timeline (process/history-flow-list): each step with who, when, how long it took,
// the outcome and the comment; the step still waiting is marked as such.
import { useQuery } from '@tanstack/react-query';
import { Alert, Skeleton, Tag, Timeline } from 'antd';
import { useT } from '../i18n/useT.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { FLOW, type HistoryEntry } from './api.ts';

export function FlowHistory({ processInstanceId }: { processInstanceId: string }) {
  const http = useHttp();
  const t = useT();
  const history = useQuery({
    queryKey: ['flow', 'history', processInstanceId],
    queryFn: () => http.get<HistoryEntry[]>(`${FLOW}/process/history-flow-list`, { processInstanceId }),
  });
  if (history.isError)
    return <Alert type="error" showIcon title={t('workflow.loadFailed', { message: (history.error as Error).message })} />;
  if (!history.data) return <Skeleton active />;
  const items = history.data.map((h) => {
    const waiting = !h.endTime;
    const outcome = h.historyActivityType === 'userTask' && !waiting ? (h.isPass ? 'approved' : 'rejected') : null;
    return {
      key: h.id,
      color: waiting ? 'orange' : outcome === 'rejected' ? 'red' : 'green',
      content: (
        <div data-testid="history-entry">
          <strong>{h.historyActivityName}</strong>
          {h.assigneeName && <span style={{ marginLeft: 8 }}>{h.assigneeName}</span>}
          {waiting && (
            <Tag color="orange" style={{ marginLeft: 8 }}>
              {t('workflow.waiting')}
            </Tag>
          )}
          {outcome && (
            <Tag color={outcome === 'approved' ? 'green' : 'red'} style={{ marginLeft: 8 }}>
              {t(outcome === 'approved' ? 'workflow.approve' : 'workflow.reject')}
            </Tag>
          )}
          <div style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
            {h.createTime}
            {h.endTime && ` → ${h.endTime}`}
            {h.historyActivityDurationTime && ` (${h.historyActivityDurationTime})`}
          </div>
          {h.comment && (
            <div>
              {t('workflow.comment')}:{h.comment}
            </div>
          )}
        </div>
      ),
    };
  });
  return <Timeline items={items} />;
}
