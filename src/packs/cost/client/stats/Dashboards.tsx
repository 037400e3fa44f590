// The dashboards of the project statistics page (docs/business-rules.md#dashboards): the ranking of projects by cost used
// and margin, the monthly cost trend by contract type with its running total, and the material
// funnel per goods. Charts in 万元 or the goods' unit; every number is also in a table beside them.
import { Alert, Card, Empty, Segmented, Select, Skeleton, Space, Table, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import {
  FUNNEL_STAGES,
  trendByCostCategory,
  type CostTrendAnswer,
  type FunnelRow,
  type FunnelStage,
} from '../../engine/statistics/dashboards.ts';
import type { Amount, ProjectFigures } from '../../engine/statistics/statistics.ts';
import { formatDecimal } from '../../../../client/renderers/format.ts';
import { langAtom } from '../../../../client/state/session.ts';
import { rate, useCostTrend, useMaterialFunnel, wan, wanNumber, yuan } from './api.ts';
import { Chart } from './Chart.tsx';
import type { ChartOption } from './echarts.ts';
import { DocLinks, useStatisticsLinks } from './links.tsx';
import type { MessageKey } from '../../../../client/i18n/messages.ts';
import { useT } from '../../../../client/i18n/useT.ts';
import { categoryLabels } from './axis.ts';

type T = (key: MessageKey, values?: Record<string, string | number>) => string;

/** 1200.5 → "1,200.5": a quantity to its 4 places, trailing zeros dropped. */
export const quantity = (v: Amount | null | undefined) => {
  if (v === null || v === undefined) return '—';
  const text = formatDecimal(String(v), 4);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
};

const byUsage = (a: ProjectFigures, b: ProjectFigures) => Number(b.costUsageRate ?? -Infinity) - Number(a.costUsageRate ?? -Infinity);

/** Horizontal bars per project, the most used target cost on top: cost used and margin in %. */
export function rankingChartOption(projects: ProjectFigures[], t: T): ChartOption {
  const ranked = [...projects].sort(byUsage).reverse();
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 8, right: 24, bottom: 8, top: 36, containLabel: true },
    yAxis: { type: 'category', data: ranked.map((p) => p.projectName), axisLabel: { interval: 0, width: 160, overflow: 'truncate' } },
    xAxis: { type: 'value', name: '%' },
    series: [
      {
        name: t('dash.rankingUsage'),
        type: 'bar',
        barMaxWidth: 20,
        data: ranked.map((p) => (p.costUsageRate === null ? null : Number(p.costUsageRate))),
      },
      {
        name: t('dash.rankingMargin'),
        type: 'bar',
        barMaxWidth: 20,
        data: ranked.map((p) => (p.marginRate === null ? null : Number(p.marginRate))),
      },
    ],
  };
}

export function ProjectRanking({ projects }: { projects: ProjectFigures[] }) {
  const t = useT();
  const [, navigate] = useLocation();
  const option = useMemo(() => rankingChartOption(projects, t), [projects, t]);
  const ranked = useMemo(() => [...projects].sort(byUsage), [projects]);
  const danger = (v: Amount | null, limit: number, above: boolean) =>
    v !== null && (above ? Number(v) > limit : Number(v) < limit) ? 'danger' : undefined;
  return (
    <Card size="small" title={t('dash.ranking')} data-testid="dashboard-ranking">
      <Chart option={option} height={Math.max(160, 48 * projects.length + 60)} testId="ranking-chart" />
      <Table<ProjectFigures>
        size="small"
        rowKey="projectId"
        pagination={false}
        dataSource={ranked}
        scroll={{ x: true }}
        data-testid="ranking-table"
        onRow={(p) => ({ onClick: () => navigate(`?projectId=${p.projectId}`), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'rank', title: '#', width: 40, render: (_, __, i) => i + 1 },
          {
            key: 'name',
            title: t('cost.project'),
            dataIndex: 'projectName',
            render: (name: string) => <Typography.Link>{name}</Typography.Link>,
          },
          {
            key: 'usage',
            title: t('dash.rankingUsage'),
            align: 'right',
            render: (_, p) => <Typography.Text type={danger(p.costUsageRate, 100, true)}>{rate(p.costUsageRate)}</Typography.Text>,
          },
          {
            key: 'over',
            title: t('cost.overPlanColumn'),
            align: 'right',
            render: (_, p) => <Typography.Text type={danger(p.costOverPlan, 0, true)}>{yuan(p.costOverPlan)}</Typography.Text>,
          },
          { key: 'measured', title: t('dash.measuredExcl'), align: 'right', render: (_, p) => yuan(p.measuredAmountExclTax) },
          {
            key: 'profit',
            title: t('dash.grossProfit'),
            align: 'right',
            render: (_, p) => <Typography.Text type={danger(p.grossProfit, 0, false)}>{yuan(p.grossProfit)}</Typography.Text>,
          },
          {
            key: 'margin',
            title: t('dash.rankingMargin'),
            align: 'right',
            render: (_, p) => <Typography.Text type={danger(p.marginRate, 0, false)}>{rate(p.marginRate)}</Typography.Text>,
          },
        ]}
      />
    </Card>
  );
}

/** Stacked bars per cost category (or contract type) by month, and the running total as a line on its own axis (万元). */
export function trendChartOption(trend: CostTrendAnswer, t: T): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 8, right: 8, bottom: 8, top: 48, containLabel: true },
    xAxis: { type: 'category', data: trend.months, axisLabel: categoryLabels(trend.months) },
    yAxis: [
      { type: 'value', name: t('cost.wan') },
      { type: 'value', name: t('dash.cumulative'), splitLine: { show: false } },
    ],
    series: [
      ...trend.series.map((s) => ({
        name: s.expenditureContractTypeName,
        type: 'bar',
        stack: 'cost',
        barMaxWidth: 48,
        data: s.amounts.map(wanNumber),
      })),
      { name: t('dash.cumulative'), type: 'line', yAxisIndex: 1, data: trend.cumulative.map(wanNumber) },
    ],
  };
}

type TrendRow = { month: string; total: Amount; cumulative: Amount } & Record<string, Amount>;

type TrendGrouping = 'category' | 'type';

export function CostTrend({ projectId }: { projectId?: string }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const answer = useCostTrend(projectId);
  // by cost category (人工费, 材料费 …) as the company reads its cost, or by expense-contract type
  const [grouping, setGrouping] = useState<TrendGrouping>('category');
  const shown = useMemo(
    () => (answer.data && grouping === 'category' ? trendByCostCategory(answer.data, lang) : answer.data),
    [answer.data, grouping, lang],
  );
  const links = useStatisticsLinks(projectId);
  // a month's figures open that period's approved settlements
  const month = (r: TrendRow, text: React.ReactNode, key: string) => (
    <DocLinks links={links.settlements(r.month)} testId={`trend-link-${key}`}>
      {text}
    </DocLinks>
  );
  const option = useMemo(() => (shown ? trendChartOption(shown, t) : null), [shown, t]);
  let body: React.ReactNode;
  if (answer.isLoading) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (answer.error) body = <Alert type="error" showIcon title={t('dash.failed', { message: answer.error.message })} />;
  else if (!shown?.months.length) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dash.trendEmpty')} />;
  else {
    const data = shown;
    const rows: TrendRow[] = data.months.map(
      (month, i) =>
        ({
          month,
          total: data.totals[i],
          cumulative: data.cumulative[i],
          ...Object.fromEntries(data.series.map((s) => [s.expenditureContractType, s.amounts[i]])),
        }) as TrendRow,
    );
    body = (
      <>
        <Chart option={option!} testId="trend-chart" />
        <Table<TrendRow>
          size="small"
          rowKey="month"
          pagination={false}
          dataSource={rows}
          scroll={{ x: 'max-content' }}
          data-testid="trend-table"
          columns={[
            { key: 'month', title: t('dash.month'), render: (_, r) => month(r, r.month, 'month') },
            ...data.series.map((s) => ({
              key: s.expenditureContractType,
              title: s.expenditureContractTypeName,
              align: 'right' as const,
              render: (_: unknown, r: TrendRow) => month(r, wan(r[s.expenditureContractType]), s.expenditureContractType),
            })),
            {
              key: 'total',
              title: t('stats.total'),
              align: 'right',
              render: (_, r) => month(r, <Typography.Text strong>{wan(r.total)}</Typography.Text>, 'total'),
            },
            { key: 'cumulative', title: t('dash.cumulative'), align: 'right', render: (_, r) => wan(r.cumulative) },
          ]}
        />
      </>
    );
  }
  const switcher = (
    <Segmented<TrendGrouping>
      size="small"
      value={grouping}
      onChange={setGrouping}
      data-testid="trend-grouping"
      options={[
        { value: 'category', label: t('dash.byCategory') },
        { value: 'type', label: t('dash.byType') },
      ]}
    />
  );
  return (
    <Card size="small" title={t('dash.trend')} extra={switcher} data-testid="dashboard-trend">
      {body}
    </Card>
  );
}

const STAGE_TEXT: Record<FunnelStage, MessageKey> = {
  planned: 'dash.planned',
  monthlyDemand: 'dash.monthlyDemand',
  procured: 'dash.procured',
  supplied: 'dash.supplied',
  received: 'dash.received',
  consumed: 'dash.consumed',
};

/** One goods' stages as a funnel in their order (not sorted by size: a stage above its plan shows wider). */
export function funnelChartOption(row: FunnelRow, t: T): ChartOption {
  const stages = FUNNEL_STAGES.filter((s) => row[s] !== null);
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c}' + (row.unit ? ` ${row.unit}` : '') },
    series: [
      {
        type: 'funnel',
        sort: 'none',
        left: '10%',
        width: '80%',
        top: 8,
        bottom: 8,
        minSize: '8%',
        gap: 2,
        label: { show: true, position: 'inside', formatter: '{b} {c}' },
        data: stages.map((s) => ({ name: t(STAGE_TEXT[s]), value: Number(row[s]) })),
      },
    ],
  };
}

export function MaterialFunnel({ projectId }: { projectId?: string }) {
  const t = useT();
  const funnel = useMaterialFunnel(projectId);
  const links = useStatisticsLinks(projectId);
  const rows = funnel.data?.rows ?? [];
  const [chosen, setChosen] = useState<string>();
  // the chart opens on the goods that went furthest through the stages (then the largest plan)
  const reached = (r: FunnelRow) => FUNNEL_STAGES.filter((stage) => Number(r[stage] ?? 0) !== 0).length;
  const shown =
    rows.find((r) => r.goodsId === chosen) ??
    [...rows].sort((a, b) => reached(b) - reached(a) || Number(b.planned ?? 0) - Number(a.planned ?? 0))[0];
  const option = useMemo(() => (shown ? funnelChartOption(shown, t) : null), [shown, t]);
  const name = (r: FunnelRow) => [r.goodsName, r.spec].filter(Boolean).join(' ');
  let body: React.ReactNode;
  if (funnel.isLoading) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (funnel.error) body = <Alert type="error" showIcon title={t('dash.failed', { message: funnel.error.message })} />;
  else if (!rows.length) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dash.funnelEmpty')} />;
  else {
    body = (
      <Space orientation="vertical" size={8} style={{ width: '100%' }}>
        <Space wrap>
          <span>{t('dash.goods')}</span>
          <Select
            data-testid="funnel-goods"
            style={{ minWidth: 260 }}
            value={shown?.goodsId}
            showSearch={{ optionFilterProp: 'label' }}
            options={rows.map((r) => ({ value: r.goodsId, label: name(r) }))}
            onChange={setChosen}
          />
        </Space>
        <Chart option={option!} height={260} testId="funnel-chart" />
        <Table<FunnelRow>
          size="small"
          rowKey="goodsId"
          pagination={false}
          dataSource={rows}
          scroll={{ x: 'max-content' }}
          data-testid="funnel-table"
          rowClassName={(r) => (r.goodsId === shown?.goodsId ? 'ant-table-row-selected' : '')}
          onRow={(r) => ({ onClick: () => setChosen(r.goodsId), style: { cursor: 'pointer' } })}
          columns={[
            { key: 'goods', title: t('dash.goods'), render: (_, r) => name(r) },
            { key: 'unit', title: t('dash.unit'), dataIndex: 'unit' },
            ...FUNNEL_STAGES.map((s) => ({
              key: s,
              title: (
                <DocLinks links={links.stage(s)} testId={`funnel-link-${s}`}>
                  {t(STAGE_TEXT[s])}
                </DocLinks>
              ),
              align: 'right' as const,
              render: (_: unknown, r: FunnelRow) =>
                r[s] === null ? <Typography.Text type="secondary">{t('dash.noAccess')}</Typography.Text> : quantity(r[s]),
            })),
          ]}
        />
      </Space>
    );
  }
  return (
    <Card size="small" title={t('dash.funnel')} data-testid="dashboard-funnel">
      {body}
    </Card>
  );
}
