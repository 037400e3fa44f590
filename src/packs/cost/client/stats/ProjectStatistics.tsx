// The project statistics page (/cost/statistics): one project or all the user may see, by expense
// contract type — contracted, settled, payable, paid, retention, remaining, settled share — with a
// totals row against the target cost, the income side, a bar chart per type, and the .xlsx export
// of the same numbers (statisticsDataExport); below, the dashboards (project ranking across projects,
// monthly cost trend, material funnel, warnings, settlement timeliness). ?projectId= opens one project.
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Empty, Row, Select, Skeleton, Space, Table, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { STATISTICS_COLUMNS, type StatisticsAnswer, type StatisticsRow } from '../../engine/statistics/statistics.ts';
import { useHttp } from '../../../../client/renderers/http-context.tsx';
import { saveFile } from '../../../../client/renderers/list/useListActions.tsx';
import { CardBox } from '../../../../client/shell/Tile.tsx';
import { langAtom } from '../../../../client/state/session.ts';
import { rate, statisticsQueries, statisticsUrls, useStatistics, wanNumber, yuan } from './api.ts';
import type { Prefetch } from '../../../../client/app/prefetch.ts';
import { Chart, preloadCharts } from './Chart.tsx';
import { CostTrend, MaterialFunnel, ProjectRanking } from './Dashboards.tsx';
import { TimelinessPanel, WarningPanel } from './Panels.tsx';
import type { ChartOption } from './echarts.ts';
import { STATISTICS_PATH } from './CostOverview.tsx';
import { DocLinks, TypeSettlementLinks, useStatisticsLinks } from './links.tsx';
import type { MessageKey } from '../../../../client/i18n/messages.ts';
import { useT } from '../../../../client/i18n/useT.ts';
import { categoryLabels } from './axis.ts';

type Column = (typeof STATISTICS_COLUMNS)[number];

/** A cell as the export shows it: 元 with separators, rates in %, counts as they are. */
function cellText(row: StatisticsRow, column: Column): string {
  const v = row[column.key];
  if (column.kind === 'money') return yuan(v as StatisticsRow['contractAmount'] | null);
  if (column.kind === 'rate') return rate(v as StatisticsRow['settleRate']);
  return v === null || v === undefined ? '—' : String(v);
}

/** Settled beyond the contract (remaining below zero) or cost beyond the plan shows red. */
const overrun = (row: StatisticsRow) =>
  Number(row.remainingContractAmount) < 0 || (row.budgetBalance !== null && Number(row.budgetBalance) < 0);

export function typeChartOption(rows: StatisticsRow[], t: (key: MessageKey) => string): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 8, right: 8, bottom: 8, top: 36, containLabel: true },
    xAxis: {
      type: 'category',
      data: rows.map((r) => r.expenditureContractTypeName ?? ''),
      axisLabel: categoryLabels(rows.map((r) => r.expenditureContractTypeName ?? '')),
    },
    yAxis: { type: 'value', name: t('cost.wan') },
    series: [
      // the budget bar only where some type has one (R-BUD-1's costBudgets)
      ...(rows.some((r) => r.budgetAmount !== null)
        ? [{ name: t('cost.budgetSeries'), type: 'bar' as const, barMaxWidth: 48, data: rows.map((r) => wanNumber(r.budgetAmount)) }]
        : []),
      { name: t('cost.contractSeries'), type: 'bar', barMaxWidth: 48, data: rows.map((r) => wanNumber(r.currentAmount)) },
      { name: t('cost.settledSeries'), type: 'bar', barMaxWidth: 48, data: rows.map((r) => wanNumber(r.settledAmountInclTax)) },
      { name: t('cost.paidSeries'), type: 'bar', barMaxWidth: 48, data: rows.map((r) => wanNumber(r.paidAmount)) },
    ],
  };
}

/** Which documents a column's figure adds up: the contracts, their settlements or their final settlements. */
const CONTRACT_FIGURES = new Set<Column['key']>([
  'contractCount',
  'contractAmount',
  'changeAmount',
  'currentAmount',
  'remainingContractAmount',
  'budgetBalance',
]);
const SETTLED_FIGURES = new Set<Column['key']>(['settledAmountInclTax', 'settledAmountExclTax', 'payableAmount', 'retentionHeld']);

function TypeTable({ data }: { data: StatisticsAnswer }) {
  const lang = useAtomValue(langAtom);
  const t = useT();
  const links = useStatisticsLinks(data.projectId ?? undefined);
  const total: StatisticsRow = { ...data.total, expenditureContractTypeName: t('stats.total') };
  const linksOf = (r: StatisticsRow, c: Column) => {
    if (c.key === 'expenditureContractTypeName' || CONTRACT_FIGURES.has(c.key)) return links.contracts(r.expenditureContractType);
    if (SETTLED_FIGURES.has(c.key)) return links.settlements();
    // paid so far is recorded on the monthly settlements and on the final ones
    if (c.key === 'paidAmount') return [...links.finals(), ...links.settlements()];
    return [];
  };
  const cell = (r: StatisticsRow, c: Column, strong = false) => {
    const text = (
      <Typography.Text strong={strong} type={overrun(r) && c.kind !== 'text' ? 'danger' : undefined}>
        {cellText(r, c)}
      </Typography.Text>
    );
    if (r[c.key] === null) return text;
    // a type's settled figures: the settlement types that hold settlements on that type's contracts
    if ((SETTLED_FIGURES.has(c.key) || c.key === 'paidAmount') && r.expenditureContractType) {
      return (
        <TypeSettlementLinks projectId={data.projectId ?? undefined} type={r.expenditureContractType} testId={`statistics-link-${c.key}`}>
          {text}
        </TypeSettlementLinks>
      );
    }
    return (
      <DocLinks links={linksOf(r, c)} testId={`statistics-link-${c.key}`}>
        {text}
      </DocLinks>
    );
  };
  return (
    <Table<StatisticsRow>
      size="small"
      bordered
      pagination={false}
      scroll={{ x: 'max-content' }}
      data-testid="statistics-table"
      rowKey={(r) => r.expenditureContractType ?? 'total'}
      dataSource={data.rows}
      rowClassName={(r) => (overrun(r) ? 'zs-stat-overrun' : '')}
      columns={STATISTICS_COLUMNS.map((c) => ({
        key: c.key,
        title: c.label[lang],
        align: c.kind === 'text' ? 'left' : 'right',
        render: (_: unknown, r: StatisticsRow) => cell(r, c),
      }))}
      summary={() => (
        <Table.Summary.Row data-testid="statistics-total">
          {STATISTICS_COLUMNS.map((c, i) => (
            <Table.Summary.Cell key={c.key} index={i} align={c.kind === 'text' ? 'left' : 'right'}>
              {cell(total, c, true)}
            </Table.Summary.Cell>
          ))}
        </Table.Summary.Row>
      )}
    />
  );
}

function IncomeAndCost({ data }: { data: StatisticsAnswer }) {
  const t = useT();
  const income = data.income;
  const incomeLinks = useStatisticsLinks(data.projectId ?? undefined).income();
  const linked = (key: string, v: Parameters<typeof yuan>[0]) => (
    <DocLinks links={incomeLinks} testId={`statistics-income-${key}`}>
      {yuan(v)}
    </DocLinks>
  );
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('stats.incomeTitle')} data-testid="statistics-income">
          {income ? (
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'contract', label: t('stats.incomeContract'), children: linked('contract', income.currentAmount) },
                { key: 'measured', label: t('stats.measured'), children: linked('measured', income.measuredAmount) },
                { key: 'received', label: t('stats.received'), children: linked('received', income.receivedAmount) },
              ]}
            />
          ) : (
            <Typography.Text type="secondary">{t('stats.noIncome')}</Typography.Text>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('stats.targetCost')} data-testid="statistics-plan">
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'target', label: t('stats.targetCost'), children: yuan(data.targetCost) },
              { key: 'settled', label: t('stats.settledExcl'), children: yuan(data.total.settledAmountExclTax) },
              {
                key: 'usage',
                label: t('stats.usage'),
                children: (
                  <Typography.Text
                    type={data.total.budgetUsageRate !== null && Number(data.total.budgetUsageRate) > 100 ? 'danger' : undefined}
                  >
                    {rate(data.total.budgetUsageRate)}
                  </Typography.Text>
                ),
              },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}

const useProjects = () => useQuery(statisticsQueries.projects(useHttp()));

/** A page load's first requests of this page: every figure it shows, as its panels will ask for them (app/prefetch.ts). */
export const prefetch: Prefetch = ({ search, http }) => {
  const projectId = new URLSearchParams(search).get('projectId') ?? undefined;
  void statisticsQueries.projects(http).queryFn();
  void statisticsQueries.statistics(http, projectId).queryFn();
  void statisticsQueries.costTrend(http, projectId).queryFn();
  void statisticsQueries.materialFunnel(http, projectId).queryFn();
  void statisticsQueries.warningStatistics(http, projectId).queryFn();
  void statisticsQueries.settlementTimeliness(http, projectId).queryFn();
};

// ECharts is fetched as soon as this page's chunk runs (the router loads it beside the shell), while
// the shell renders and the figures are on their way, not after they arrive
void preloadCharts();

export default function ProjectStatistics() {
  const t = useT();
  const http = useHttp();
  const [, navigate] = useLocation();
  const projectId = new URLSearchParams(useSearch()).get('projectId') ?? undefined;
  const projects = useProjects();
  const statistics = useStatistics(projectId);
  const [exporting, setExporting] = useState(false);
  const option = useMemo(() => typeChartOption(statistics.data?.rows ?? [], t), [statistics.data, t]);

  const exportNow = async () => {
    setExporting(true);
    try {
      const { blob, filename } = await http.blob(statisticsUrls().export, projectId ? { projectId } : {});
      saveFile(blob, filename && filename !== 'download' ? filename : t('stats.exportFile'));
    } finally {
      setExporting(false);
    }
  };

  const toolbar = (
    <Space wrap>
      <span>{t('stats.project')}</span>
      <Select
        data-testid="statistics-project"
        style={{ minWidth: 280 }}
        showSearch={{ optionFilterProp: 'label' }}
        loading={projects.isLoading}
        value={projectId ?? ''}
        options={[{ value: '', label: t('stats.allProjects') }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
        onChange={(id: string) => navigate(id ? `${STATISTICS_PATH}?projectId=${id}` : STATISTICS_PATH)}
      />
      <Button icon={<DownloadOutlined />} loading={exporting} disabled={!statistics.data} onClick={() => void exportNow()}>
        {t('stats.export')}
      </Button>
    </Space>
  );

  let body: React.ReactNode;
  if (statistics.isLoading) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (statistics.error)
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
  else {
    const data = statistics.data!;
    body = (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <IncomeAndCost data={data} />
        {data.rows.length ? (
          <>
            <Typography.Text strong>{t('stats.chart')}</Typography.Text>
            <Chart option={option} testId="statistics-chart" />
            <Typography.Text strong>{t('stats.byType')}</Typography.Text>
            <TypeTable data={data} />
          </>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('stats.empty')} />
        )}
        {!projectId && data.projects.length > 1 && <ProjectRanking projects={data.projects} />}
      </Space>
    );
  }
  return (
    <CardBox
      title={
        <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
          <span>{t('stats.title')}</span>
          {toolbar}
        </Space>
      }
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        {body}
        {/* the dashboards ask for their own figures at once, not after the statistics arrive */}
        <CostTrend projectId={projectId} />
        <MaterialFunnel projectId={projectId} />
        <WarningPanel projectId={projectId} />
        <TimelinessPanel projectId={projectId} />
      </Space>
    </CardBox>
  );
}
