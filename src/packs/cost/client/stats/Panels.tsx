// Two panels of the project statistics page (docs/business-rules.md#dashboards): the warnings by type and
// level with how long the open ones have waited, every count opening the warning list filtered to
// it; and the settlement timeliness of a month — contracts that should have settled vs did, the ones
// that did not (each opening its contract), zero and negative settlements, approval times. Document
// types are found by role; a list opens filtered through its address (`?<field>=<value>`).
import { Alert, Card, Col, DatePicker, Dropdown, Empty, Row, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useAtomValue } from 'jotai';
import { useCallback, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { entityWithRole } from '../../../../engine/model/roles.ts';
import type { EntityModel } from '../../../../engine/model/types.ts';
import {
  WARN_AGES,
  type ExpectedContract,
  type FlaggedSettlement,
  type ApprovalDuration,
  type TimelinessAnswer,
  type WarnAge,
  type WarningsAnswer,
  type WarningTypeRow,
} from '../../engine/statistics/panels.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';
import type { Amount } from '../../engine/statistics/statistics.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { formatDecimal } from '../../../../client/renderers/format.ts';
import { pageMenus } from '../../../../client/state/menus.ts';
import { menusAtom } from '../../../../client/state/session.ts';
import { isForbidden, rate, useSettlementTimeliness, useWarningStatistics, yuan } from './api.ts';
import { Chart } from './Chart.tsx';
import type { ChartOption } from './echarts.ts';
import type { MessageKey } from '../../../../client/i18n/messages.ts';
import { useT } from '../../../../client/i18n/useT.ts';
import { categoryLabels } from './axis.ts';
import { searchByRole } from './links.tsx';

/** Days to 1 place: 0 → "0.0". */
const days = (v: Amount) => formatDecimal(String(v), 1);

type T = (key: MessageKey, values?: Record<string, string | number>) => string;
type Search = Record<string, string | number | null | undefined>;

/** A list's address with a search (`?field=value`, empty values left out). */
export function listHref(path: string, search: Search): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** (model, search) → the address of its list with that search, or undefined when the user has no menu for it. */
function useListHref() {
  const menus = useAtomValue(menusAtom);
  const paths = useMemo(() => new Set(pageMenus(menus).map((m) => m.path)), [menus]);
  return useCallback(
    (model: EntityModel | undefined, search: Search) =>
      model?.menu && paths.has(model.menu.path) ? listHref(model.menu.path, search) : undefined,
    [paths],
  );
}

/** A count that opens its list; several lists (open = unread + read) make a menu; 0 or no list stays text. */
function CountLink({
  count,
  links,
  testId,
}: {
  count: number;
  links: { key: string; label: string; href: string | undefined }[];
  testId: string;
}) {
  const [, navigate] = useLocation();
  const usable = links.filter((l): l is { key: string; label: string; href: string } => l.href !== undefined);
  if (!count || !usable.length) return <span>{count}</span>;
  if (usable.length === 1)
    return (
      <Link href={usable[0].href} data-testid={testId}>
        {count}
      </Link>
    );
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: usable.map((l) => ({ key: l.key, label: <span data-href={l.href}>{l.label}</span> })),
        onClick: ({ key }) => navigate(usable.find((l) => l.key === key)!.href),
      }}
    >
      <Typography.Link data-testid={testId}>{count}</Typography.Link>
    </Dropdown>
  );
}

const LEVEL_COLOR: Record<string, string> = { critical: '#cf1322', warning: '#fa8c16', info: '#1677ff' };
const levelText = (t: (k: MessageKey) => string, level: string) =>
  ['critical', 'warning', 'info'].includes(level) ? t(`stats.${level}` as MessageKey) : level;

/** Stacked bars per warning type by level, the type with most warnings on top. */
export function warningsChartOption(answer: WarningsAnswer, levelName: (level: string) => string): ChartOption {
  const rows = [...answer.rows].reverse();
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 8, right: 24, bottom: 8, top: 36, containLabel: true },
    yAxis: { type: 'category', data: rows.map((r) => r.warnTypeName), axisLabel: { interval: 0, width: 160, overflow: 'truncate' } },
    xAxis: { type: 'value', minInterval: 1 },
    series: answer.levels.map((level) => ({
      name: levelName(level),
      type: 'bar',
      stack: 'warnings',
      barMaxWidth: 20,
      itemStyle: LEVEL_COLOR[level] ? { color: LEVEL_COLOR[level] } : undefined,
      data: rows.map((r) => r.levels[level] ?? 0),
    })),
  };
}

/** createTime ranges (from,to) of the warnings open ≤ 7, 8–30 and > 30 days on `today`. */
export function ageRange(age: WarnAge, today: string): string {
  const back = (days: number) => dayjs(today).subtract(days, 'day').format('YYYY-MM-DD');
  if (age === 'upTo7') return `${back(7)},${today}`;
  if (age === 'upTo30') return `${back(30)},${back(8)}`;
  return `,${back(31)}`;
}

export function WarningPanel({ projectId }: { projectId?: string }) {
  const t = useT();
  const answer = useWarningStatistics(projectId);
  const hrefOf = useListHref();
  const model = entityWithRole(catalog(), STATISTICS_ROLES.warnings);
  const levelName = useCallback((level: string) => levelText(t, level), [t]);
  const option = useMemo(() => (answer.data ? warningsChartOption(answer.data, levelName) : null), [answer.data, levelName]);
  if (answer.error && isForbidden(answer.error)) return null;
  const link = (search: Search) => hrefOf(model, { ...searchByRole(model, { [STATISTICS_ROLES.projects]: projectId }), ...search });
  const openLinks = (r: WarningTypeRow, extra: Search = {}) => [
    { key: 'unread', label: t('warn.openUnread'), href: link({ warnType: r.warnType, warnStatus: 'unread', ...extra }) },
    { key: 'read', label: t('warn.openRead'), href: link({ warnType: r.warnType, warnStatus: 'read', ...extra }) },
  ];
  const id = (r: WarningTypeRow, column: string) => `warn-${r.warnType ?? 'total'}-${column}`;
  let body: React.ReactNode;
  if (answer.isLoading) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (answer.error) body = <Alert type="error" showIcon title={t('dash.failed', { message: answer.error.message })} />;
  else if (!answer.data?.rows.length) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('warn.empty')} />;
  else {
    const data = answer.data;
    const columns = [
      { key: 'type', title: t('warn.type'), render: (_: unknown, r: WarningTypeRow) => r.warnTypeName },
      ...data.levels.map((level) => ({
        key: level,
        title: levelName(level),
        align: 'right' as const,
        render: (_: unknown, r: WarningTypeRow) => (
          <CountLink
            count={r.levels[level] ?? 0}
            testId={id(r, level)}
            links={[{ key: level, label: level, href: link({ warnType: r.warnType, warnLevel: level }) }]}
          />
        ),
      })),
      {
        key: 'total',
        title: t('warn.total'),
        align: 'right' as const,
        render: (_: unknown, r: WarningTypeRow) => (
          <CountLink count={r.total} testId={id(r, 'total')} links={[{ key: 'all', label: '', href: link({ warnType: r.warnType }) }]} />
        ),
      },
      {
        key: 'unread',
        title: t('warn.unread'),
        align: 'right' as const,
        render: (_: unknown, r: WarningTypeRow) => (
          <CountLink
            count={r.unread}
            testId={id(r, 'unread')}
            links={[{ key: 'unread', label: '', href: link({ warnType: r.warnType, warnStatus: 'unread' }) }]}
          />
        ),
      },
      {
        key: 'open',
        title: t('warn.open'),
        align: 'right' as const,
        render: (_: unknown, r: WarningTypeRow) => <CountLink count={r.open} testId={id(r, 'open')} links={openLinks(r)} />,
      },
      {
        key: 'ages',
        title: t('warn.ageing'),
        children: WARN_AGES.map((age) => ({
          key: age,
          title: t(`warn.${age}`),
          align: 'right' as const,
          render: (_: unknown, r: WarningTypeRow) => (
            <Typography.Text type={age === 'over30' && r.ages[age] ? 'danger' : undefined}>
              <CountLink count={r.ages[age]} testId={id(r, age)} links={openLinks(r, { createTime: ageRange(age, data.today) })} />
            </Typography.Text>
          ),
        })),
      },
    ];
    body = (
      <Space orientation="vertical" size={8} style={{ width: '100%' }}>
        <Chart option={option!} height={Math.max(160, 36 * data.rows.length + 60)} testId="warnings-chart" />
        <Table<WarningTypeRow>
          size="small"
          bordered
          rowKey={(r) => r.warnType ?? ''}
          pagination={false}
          dataSource={data.rows}
          scroll={{ x: 'max-content' }}
          data-testid="warnings-table"
          columns={columns}
          summary={() => (
            <Table.Summary.Row data-testid="warnings-total">
              <Table.Summary.Cell index={0}>
                <Typography.Text strong>{t('warn.total')}</Typography.Text>
              </Table.Summary.Cell>
              {columns
                .slice(1)
                .flatMap((c) => ('children' in c && c.children ? c.children : [c]))
                .map((c, i) => (
                  <Table.Summary.Cell key={c.key} index={i + 1} align="right">
                    {(c as { render: (v: unknown, r: WarningTypeRow) => React.ReactNode }).render(null, data.total)}
                  </Table.Summary.Cell>
                ))}
            </Table.Summary.Row>
          )}
        />
        <Typography.Text type="secondary">{t('warn.asOf', { today: data.today })}</Typography.Text>
      </Space>
    );
  }
  return (
    <Card size="small" title={t('warn.title')} data-testid="dashboard-warnings">
      {body}
    </Card>
  );
}

/** Bars per contract type: how many should have settled the month and how many did. */
export function timelinessChartOption(answer: TimelinessAnswer, t: T): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 8, right: 8, bottom: 8, top: 36, containLabel: true },
    xAxis: {
      type: 'category',
      data: answer.byType.map((r) => r.expenditureContractTypeName),
      axisLabel: categoryLabels(answer.byType.map((r) => r.expenditureContractTypeName)),
    },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: t('time.expected'), type: 'bar', barMaxWidth: 40, data: answer.byType.map((r) => r.expected) },
      { name: t('time.settled'), type: 'bar', barMaxWidth: 40, data: answer.byType.map((r) => r.settled) },
    ],
  };
}

export function TimelinessPanel({ projectId }: { projectId?: string }) {
  const t = useT();
  const [month, setMonth] = useState<string>();
  const answer = useSettlementTimeliness(projectId, month);
  const hrefOf = useListHref();
  const contractModel = entityWithRole(catalog(), STATISTICS_ROLES.expenseContract);
  const option = useMemo(() => (answer.data ? timelinessChartOption(answer.data, t) : null), [answer.data, t]);
  if (answer.error && isForbidden(answer.error)) return null;
  const shown = month ?? answer.data?.month;
  // a document's list filtered to its project (by role) and its number (x-entity.code, which the
  // server requires of the contracts and settlements it answers)
  const byCode = (model: EntityModel, code: string, p = projectId) =>
    hrefOf(model, { ...searchByRole(model, { [STATISTICS_ROLES.projects]: p }), [model.code!.field]: code });
  const contractLink = (code: string, text: React.ReactNode, p?: string) => {
    const href = byCode(contractModel, code, p ?? projectId);
    return href ? (
      <Link href={href} data-testid={`timeliness-contract-${code}`}>
        {text}
      </Link>
    ) : (
      text
    );
  };
  const settlementLink = (s: FlaggedSettlement) => {
    const href = byCode(catalog().entities[s.entity], s.code);
    return href ? (
      <Link href={href} data-testid={`timeliness-settlement-${s.code}`}>
        {s.code}
      </Link>
    ) : (
      s.code
    );
  };
  const picker = (
    <DatePicker
      picker="month"
      allowClear={false}
      size="small"
      data-testid="timeliness-month"
      value={shown ? dayjs(`${shown}-01`) : undefined}
      onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
      aria-label={t('time.month')}
    />
  );
  let body: React.ReactNode;
  if (answer.isLoading) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (answer.error) body = <Alert type="error" showIcon title={t('dash.failed', { message: answer.error.message })} />;
  else {
    const data = answer.data!;
    const flagged = [
      ...data.zero.map((s) => ({ ...s, flag: 'zero' as const })),
      ...data.negative.map((s) => ({ ...s, flag: 'negative' as const })),
    ];
    body = (
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Row gutter={[12, 12]} data-testid="timeliness-figures">
          <Col xs={12} md={6} lg={4}>
            <Statistic title={t('time.expected')} value={data.expected} />
          </Col>
          <Col xs={12} md={6} lg={4}>
            <Statistic title={t('time.settled')} value={data.settled} />
          </Col>
          <Col xs={12} md={6} lg={4}>
            <Statistic
              title={t('time.rate')}
              value={rate(data.settleRate)}
              valueStyle={data.settleRate !== null && Number(data.settleRate) < 100 ? { color: '#cf1322' } : undefined}
            />
          </Col>
          <Col xs={12} md={6} lg={4}>
            <Statistic title={t('time.zero')} value={data.zero.length} />
          </Col>
          <Col xs={12} md={6} lg={4}>
            <Statistic title={t('time.negative')} value={data.negative.length} />
          </Col>
        </Row>
        <Typography.Text type="secondary">{t('time.rule')}</Typography.Text>
        {data.expected ? (
          <>
            <Typography.Text strong>{t('time.byType')}</Typography.Text>
            <Chart option={option!} height={220} testId="timeliness-chart" />
            <Typography.Text strong>{t('time.missing')}</Typography.Text>
            {data.missing.length ? (
              <Table<ExpectedContract>
                size="small"
                rowKey="contractId"
                pagination={false}
                dataSource={data.missing}
                scroll={{ x: 'max-content' }}
                data-testid="timeliness-missing"
                columns={[
                  { key: 'code', title: t('time.code'), render: (_, c) => contractLink(c.code, c.code, c.projectId) },
                  { key: 'name', title: t('time.name'), dataIndex: 'name' },
                  ...(projectId ? [] : [{ key: 'projectName', title: t('time.project'), dataIndex: 'projectName' }]),
                  { key: 'type', title: t('time.type'), dataIndex: 'expenditureContractTypeName' },
                  { key: 'party', title: t('time.party'), render: (_, c) => c.subcontractorName ?? '—' },
                  {
                    key: 'last',
                    title: t('time.lastPeriod'),
                    render: (_, c) => c.lastSettledPeriod ?? <Typography.Text type="danger">{t('time.never')}</Typography.Text>,
                  },
                ]}
              />
            ) : (
              <Alert type="success" showIcon title={t('time.noneMissing')} />
            )}
          </>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('time.noneExpected')} />
        )}
        {flagged.length > 0 && (
          <>
            <Typography.Text strong>{t('time.flagged')}</Typography.Text>
            <Table<(typeof flagged)[number]>
              size="small"
              rowKey={(s) => `${s.flag}-${s.entity}-${s.id}`}
              pagination={false}
              dataSource={flagged}
              scroll={{ x: 'max-content' }}
              data-testid="timeliness-flagged"
              columns={[
                {
                  key: 'flag',
                  title: '',
                  render: (_, s) => (
                    <Tag color={s.flag === 'negative' ? 'red' : 'orange'}>{t(s.flag === 'negative' ? 'time.negative' : 'time.zero')}</Tag>
                  ),
                },
                { key: 'kind', title: t('time.kind'), dataIndex: 'entityName' },
                { key: 'code', title: t('time.settlementCode'), render: (_, s) => settlementLink(s) },
                { key: 'contract', title: t('time.contract'), render: (_, s) => contractLink(s.expenditureContractCode, s.contractName) },
                { key: 'amount', title: t('time.amount'), align: 'right', render: (_, s) => yuan(s.thisAmountInclTax) },
                { key: 'payable', title: t('time.payable'), align: 'right', render: (_, s) => yuan(s.thisPayableAmount) },
                {
                  key: 'status',
                  title: t('time.status'),
                  render: (_, s) => t(s.approvalStatus === 'approving' ? 'time.approving' : 'time.approved'),
                },
              ]}
            />
          </>
        )}
        <Typography.Text strong>{t('time.durations')}</Typography.Text>
        {data.durations.length ? (
          <Table<ApprovalDuration>
            size="small"
            rowKey="entity"
            pagination={false}
            dataSource={data.durations}
            data-testid="timeliness-durations"
            columns={[
              { key: 'kind', title: t('time.kind'), dataIndex: 'entityName' },
              { key: 'count', title: t('time.count'), align: 'right', dataIndex: 'count' },
              { key: 'average', title: t('time.average'), align: 'right', render: (_, d) => days(d.averageDays) },
              {
                key: 'max',
                title: t('time.max'),
                align: 'right',
                render: (_, d) => <Typography.Text type={Number(d.maxDays) > 7 ? 'danger' : undefined}>{days(d.maxDays)}</Typography.Text>,
              },
            ]}
          />
        ) : (
          <Typography.Text type="secondary">{t('time.noDurations')}</Typography.Text>
        )}
      </Space>
    );
  }
  return (
    <Card
      size="small"
      data-testid="dashboard-timeliness"
      title={t('time.title')}
      extra={
        <Space>
          <span>{t('time.month')}</span>
          {picker}
        </Space>
      }
    >
      {body}
    </Card>
  );
}
