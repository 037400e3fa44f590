// The home page's cost overview for a cost manager: the projects they may see with contracted,
// settled and paid amounts against target cost (a bar chart and a table), projects over target
// cost, unread warnings by level and approvals waiting. Each figure opens where its documents are: the
// contracted and income tiles and a project's contracted amount their contract ledgers.
// A user who may not read projects and expense contracts sees nothing of it, and nothing is asked for them.
import { Alert, Button, Card, Col, Empty, Row, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import type { ProjectFigures, StatisticsAnswer } from '../../engine/statistics/statistics.ts';
import { CardBox } from '../../../../client/shell/Tile.tsx';
import { flattenMenus } from '../../../../client/state/menus.ts';
import { menusAtom } from '../../../../client/state/session.ts';
import {
  isForbidden,
  rate,
  statisticsEntities,
  useStatistics,
  useUnreadWarnings,
  useWaitingApprovals,
  wan,
  wanNumber,
  WARN_LEVELS,
  warningsEntity,
  warningsMenuCode,
  yuan,
} from './api.ts';
import { useMayRead } from '../../../../client/renderers/data.ts';
import { Chart } from './Chart.tsx';
import { DocLinks, useStatisticsLinks } from './links.tsx';
import type { MessageKey } from '../../../../client/i18n/messages.ts';
import { useT } from '../../../../client/i18n/useT.ts';
import type { ChartOption } from './echarts.ts';

export const STATISTICS_PATH = '/cost/statistics';
const LEVEL_COLOURS = { critical: 'red', warning: 'orange', info: 'blue' } as const;
const isOver = (p: ProjectFigures) => p.costOverPlan !== null && Number(p.costOverPlan) > 0;

/** Bars per project: contracted, settled and paid (all incl. tax, as contracts are signed), in 万元. */
export function projectChartOption(projects: ProjectFigures[], t: (key: MessageKey) => string): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 8, right: 8, bottom: 8, top: 36, containLabel: true },
    xAxis: { type: 'category', data: projects.map((p) => p.projectName), axisLabel: { interval: 0, width: 140, overflow: 'truncate' } },
    yAxis: { type: 'value', name: t('cost.wan') },
    series: [
      { name: t('cost.contractSeries'), type: 'bar', barMaxWidth: 48, data: projects.map((p) => wanNumber(p.contractAmount)) },
      { name: t('cost.settledSeries'), type: 'bar', barMaxWidth: 48, data: projects.map((p) => wanNumber(p.settledAmountInclTax)) },
      { name: t('cost.paidSeries'), type: 'bar', barMaxWidth: 48, data: projects.map((p) => wanNumber(p.paidAmount)) },
    ],
  };
}

function Figure({
  title,
  value,
  suffix,
  onClick,
  extra,
  testId,
  danger,
}: {
  title: string;
  value: string | number;
  suffix?: string;
  onClick?: () => void;
  extra?: React.ReactNode;
  testId: string;
  danger?: boolean;
}) {
  return (
    <Card size="small" hoverable={Boolean(onClick)} onClick={onClick} data-testid={testId}>
      <Statistic title={title} value={value} suffix={suffix} styles={{ content: danger ? { color: '#cf1322' } : undefined }} />
      {extra}
    </Card>
  );
}

function Figures({ data }: { data: StatisticsAnswer }) {
  const t = useT();
  const [, navigate] = useLocation();
  const menus = useAtomValue(menusAtom);
  // the unread warnings only for a reader of warnings (the tile stays, without a count)
  const warnings = useUnreadWarnings(useMayRead(warningsEntity()) === true);
  const approvals = useWaitingApprovals();
  const warnCode = warningsMenuCode();
  const warnPath = flattenMenus(menus).find((m) => m.code === warnCode)?.path;
  const over = data.projects.filter(isOver).length;
  const unread = warnings.data ? WARN_LEVELS.reduce((n, l) => n + warnings.data[l], 0) : undefined;
  const toStatistics = () => navigate(STATISTICS_PATH);
  // the contract figures open their ledgers (approved contracts, as summed); the rest the statistics
  const links = useStatisticsLinks();
  const [ledger] = links.contracts(null);
  const [incomeLedger] = links.income();
  const cards = [
    <Figure key="projects" testId="cost-projects" title={t('cost.projects')} value={data.projects.length} onClick={toStatistics} />,
    <Figure
      key="income"
      testId="cost-income"
      title={t('cost.income')}
      value={data.income ? wan(data.income.currentAmount) : '—'}
      suffix={t('cost.wan')}
      onClick={incomeLedger ? () => navigate(incomeLedger.href) : toStatistics}
    />,
    <Figure
      key="contracted"
      testId="cost-contracted"
      title={t('cost.contracted')}
      value={wan(data.total.currentAmount)}
      suffix={t('cost.wan')}
      onClick={ledger ? () => navigate(ledger.href) : toStatistics}
    />,
    <Figure
      key="settled"
      testId="cost-settled"
      title={t('cost.settled')}
      value={wan(data.total.settledAmountExclTax)}
      suffix={t('cost.wan')}
      onClick={toStatistics}
    />,
    <Figure key="over" testId="cost-over-plan" title={t('cost.overPlan')} value={over} danger={over > 0} onClick={toStatistics} />,
    <Figure
      key="warnings"
      testId="cost-warnings"
      title={t('cost.warnings')}
      value={unread ?? '—'}
      danger={Boolean(warnings.data?.critical)}
      onClick={warnPath ? () => navigate(warnPath) : undefined}
      extra={
        warnings.data && (
          <Space size={4}>
            {WARN_LEVELS.map((l) => (
              <Tag key={l} color={LEVEL_COLOURS[l]}>
                {t(`stats.${l}`)} {warnings.data[l]}
              </Tag>
            ))}
          </Space>
        )
      }
    />,
    <Figure
      key="approvals"
      testId="cost-approvals"
      title={t('cost.approvals')}
      value={approvals.data ? approvals.data.todo + approvals.data.claim : '—'}
      onClick={() => navigate(approvals.data && !approvals.data.todo && approvals.data.claim ? '/work/claim' : '/work/todo')}
      extra={
        approvals.data && (
          <Typography.Text type="secondary">
            {t('cost.approvalsDetail', { todo: approvals.data.todo, claim: approvals.data.claim })}
          </Typography.Text>
        )
      }
    />,
  ];
  return (
    <Row gutter={[12, 12]}>
      {cards.map((c) => (
        <Col key={c.key} xs={12} md={8} xl={6} xxl={3}>
          {c}
        </Col>
      ))}
    </Row>
  );
}

/** A project's contracted figure: its contract ledger (the row itself opens the statistics). */
function ProjectContracts({ figures }: { figures: ProjectFigures }) {
  const links = useStatisticsLinks(figures.projectId);
  return (
    <span onClick={(e) => e.stopPropagation()}>
      <DocLinks links={links.contracts(null)} testId="cost-project-contracts">
        {yuan(figures.contractAmount)}
      </DocLinks>
    </span>
  );
}

function ProjectTable({ projects }: { projects: ProjectFigures[] }) {
  const t = useT();
  const [, navigate] = useLocation();
  const open = (p: ProjectFigures) => navigate(`${STATISTICS_PATH}?projectId=${p.projectId}`);
  return (
    <Table<ProjectFigures>
      size="small"
      rowKey="projectId"
      pagination={false}
      dataSource={projects}
      data-testid="cost-project-table"
      scroll={{ x: true }}
      onRow={(p) => ({ onClick: () => open(p), style: { cursor: 'pointer' } })}
      columns={[
        {
          key: 'name',
          title: t('cost.project'),
          dataIndex: 'projectName',
          render: (name: string) => <Typography.Link>{name}</Typography.Link>,
        },
        { key: 'target', title: t('cost.targetCost'), align: 'right', render: (_, p) => yuan(p.targetCost) },
        { key: 'contract', title: t('cost.contractSeries'), align: 'right', render: (_, p) => <ProjectContracts figures={p} /> },
        { key: 'settled', title: t('cost.settled'), align: 'right', render: (_, p) => yuan(p.settledAmountExclTax) },
        {
          key: 'paid',
          title: t('cost.paidSeries'),
          align: 'right',
          render: (_, p) =>
            p.paidAmount === null ? <Typography.Text type="secondary">{t('cost.notRecorded')}</Typography.Text> : yuan(p.paidAmount),
        },
        {
          key: 'over',
          title: t('cost.overPlanColumn'),
          align: 'right',
          render: (_, p) => <Typography.Text type={isOver(p) ? 'danger' : undefined}>{yuan(p.costOverPlan)}</Typography.Text>,
        },
        {
          key: 'usage',
          title: t('cost.usage'),
          align: 'right',
          render: (_, p) => <Typography.Text type={isOver(p) ? 'danger' : undefined}>{rate(p.costUsageRate)}</Typography.Text>,
        },
      ]}
    />
  );
}

export function CostOverview() {
  const t = useT();
  const [, navigate] = useLocation();
  // asked only of a user who may read what it sums: nobody else sees the overview (nor a refusal)
  const allowed = useMayRead(...statisticsEntities());
  const statistics = useStatistics(undefined, allowed === true);
  const option = useMemo(() => projectChartOption(statistics.data?.projects ?? [], t), [statistics.data, t]);
  if (!allowed || (statistics.error && isForbidden(statistics.error))) return null;
  const title = (
    <Space style={{ width: '100%', justifyContent: 'space-between' }}>
      <span>{t('cost.title')}</span>
      <Button type="link" size="small" onClick={() => navigate(STATISTICS_PATH)}>
        {t('cost.statisticsLink')}
      </Button>
    </Space>
  );
  let body: React.ReactNode;
  if (statistics.isLoading) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (statistics.error) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('cost.failed', { message: statistics.error.message })}
        action={
          <Button size="small" onClick={() => void statistics.refetch()}>
            {t('cost.retry')}
          </Button>
        }
      />
    );
  } else if (!statistics.data?.projects.length) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cost.noProjects')} />;
  else {
    body = (
      <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="cost-overview">
        <Figures data={statistics.data} />
        <Typography.Text strong>{t('cost.byProject')}</Typography.Text>
        <Chart
          option={option}
          testId="cost-chart"
          onCategoryClick={(i) => navigate(`${STATISTICS_PATH}?projectId=${statistics.data!.projects[i].projectId}`)}
        />
        <ProjectTable projects={statistics.data.projects} />
      </Space>
    );
  }
  return (
    <CardBox radius={10} title={title}>
      {body}
    </CardBox>
  );
}
