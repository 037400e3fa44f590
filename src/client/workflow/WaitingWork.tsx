// How many tasks wait for the user (work/counts): 待办 (assigned to them) and 待签 (offered to one
// of their roles, waiting for someone to claim it). A role's new task shows only under 待签事务
// until it is claimed, so 待办事务, the home page and the bell say how many wait there, each with
// the way to claim them (签收 in 待签事务).
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useLocation } from 'wouter';
import { useT } from '../i18n/useT.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { CardBox } from '../shell/Tile.tsx';

export interface WorkCounts {
  todo: number;
  claim: number;
}

/** Under ['flow']: a claim, an approval or a live message refreshes it with the work lists. */
export const COUNTS_KEY = ['flow', 'counts'] as const;

// the flow API's counts (api.ts's FLOW, not imported: api.ts brings the schema catalog into the shell's bundle)
export const COUNTS_URL = '/api/blade-flow/work/counts';
const CLAIM_PATH = '/work/claim';
const TODO_PATH = '/work/todo';

/** The counts; `staleTime` lets a reader mounted just after another take its answer instead of asking again. */
export function useWorkCounts(staleTime = 0) {
  const http = useHttp();
  // a failure here only hides the counts: no toast over the page the user opened
  return useQuery({
    queryKey: COUNTS_KEY,
    queryFn: () => http.get<WorkCounts>(COUNTS_URL, undefined, { silent: true }),
    staleTime,
  });
}

function GoButton({ to, label, onGo, primary }: { to: string; label: string; onGo?: () => void; primary?: boolean }) {
  const [, navigate] = useLocation();
  return (
    <Button
      size="small"
      type={primary ? 'primary' : 'default'}
      onClick={() => {
        onGo?.();
        navigate(to);
      }}
    >
      {label}
    </Button>
  );
}

/** Above 待办事务: how many tasks wait to be claimed, and 去签收. Nothing while none wait. */
export function ClaimWaiting() {
  const t = useT();
  const claim = useWorkCounts().data?.claim ?? 0;
  if (!claim) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="claim-waiting"
      style={{ marginBottom: 12 }}
      title={t('workflow.waiting.claim', { count: claim })}
      description={t('workflow.waiting.claimHint')}
      action={<GoButton to={CLAIM_PATH} label={t('workflow.waiting.goClaim')} primary />}
    />
  );
}

/** The counts as one line with their buttons (home page, bell); nothing while nothing waits. */
export function WaitingWorkLine({ onGo, style }: { onGo?: () => void; style?: CSSProperties }) {
  const t = useT();
  const counts = useWorkCounts().data;
  if (!counts || (!counts.claim && !counts.todo)) return null;
  return (
    <Space wrap size={[16, 8]} data-testid="waiting-work" style={style}>
      {counts.claim > 0 && (
        <Space size={8}>
          <Typography.Text strong>{t('workflow.waiting.claim', { count: counts.claim })}</Typography.Text>
          <GoButton to={CLAIM_PATH} label={t('workflow.waiting.goClaim')} onGo={onGo} primary />
        </Space>
      )}
      {counts.todo > 0 && (
        <Space size={8}>
          <Typography.Text strong>{t('workflow.waiting.todo', { count: counts.todo })}</Typography.Text>
          <GoButton to={TODO_PATH} label={t('workflow.waiting.goTodo')} onGo={onGo} />
        </Space>
      )}
    </Space>
  );
}

/** The home page's 我的事务 card, shown while something waits for the user. */
export function WaitingWorkCard() {
  const t = useT();
  const counts = useWorkCounts().data;
  if (!counts || (!counts.claim && !counts.todo)) return null;
  return (
    <CardBox radius={10} title={t('workflow.waiting.title')}>
      <WaitingWorkLine />
    </CardBox>
  );
}
