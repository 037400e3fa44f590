// The texts of the cost dashboards (home panel and project statistics page), in both languages,
// kept beside the components; the column titles of the statistics table come from the engine
// (engine/statistics), shared with the server's export.
import { useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { fillPlaceholders } from '../i18n/useT.ts';
import { langAtom } from '../state/session.ts';

export const zh = {
  'cost.title': '成本概览',
  'cost.projects': '项目数',
  'cost.income': '收入合同额',
  'cost.contracted': '支出合同额',
  'cost.settled': '累计结算(不含税)',
  'cost.paid': '累计已付',
  'cost.overPlan': '超目标成本项目',
  'cost.warnings': '未读预警',
  'cost.approvals': '待处理审批',
  'cost.approvalsDetail': '待办 {todo} · 待签收 {claim}',
  'cost.byProject': '各项目合同、结算与付款(万元)',
  'cost.project': '项目',
  'cost.targetCost': '目标成本',
  'cost.contractSeries': '支出合同',
  'cost.settledSeries': '累计结算(含税)',
  'cost.paidSeries': '累计已付',
  'cost.overPlanColumn': '超目标成本',
  'cost.usage': '成本使用率',
  'cost.noProjects': '暂无可查看的项目',
  'cost.failed': '统计数据加载失败:{message}',
  'cost.retry': '重试',
  'cost.statisticsLink': '项目统计',
  'cost.wan': '万元',
  'cost.yuan': '元',
  'cost.notRecorded': '未记录',
  'stats.title': '项目统计',
  'stats.project': '项目',
  'stats.allProjects': '全部项目',
  'stats.export': '导出',
  'stats.exportFile': '项目统计.xlsx',
  'stats.byType': '按合同类别(元)',
  'stats.chart': '按合同类别:合同、结算与付款(万元)',
  'stats.incomeTitle': '收入与成本',
  'stats.incomeContract': '收入合同额(含变更)',
  'stats.measured': '业主累计计量',
  'stats.received': '累计收款',
  'stats.noIncome': '无权查看收入合同',
  'stats.targetCost': '目标成本',
  'stats.settledExcl': '累计结算成本(不含税)',
  'stats.usage': '目标成本使用率',
  'stats.empty': '该范围内没有已审批的支出合同',
  'stats.total': '合计',
  'stats.critical': '严重',
  'stats.warning': '预警',
  'stats.info': '提示',
};

export type TextKey = keyof typeof zh;

export const en: Record<TextKey, string> = {
  'cost.title': 'Cost overview',
  'cost.projects': 'Projects',
  'cost.income': 'Income contracts',
  'cost.contracted': 'Expense contracts',
  'cost.settled': 'Settled (excl. tax)',
  'cost.paid': 'Paid',
  'cost.overPlan': 'Projects over target cost',
  'cost.warnings': 'Unread warnings',
  'cost.approvals': 'Approvals waiting',
  'cost.approvalsDetail': 'To do {todo} · to claim {claim}',
  'cost.byProject': 'Contracted, settled and paid by project (10k CNY)',
  'cost.project': 'Project',
  'cost.targetCost': 'Target cost',
  'cost.contractSeries': 'Contracted',
  'cost.settledSeries': 'Settled (incl. tax)',
  'cost.paidSeries': 'Paid',
  'cost.overPlanColumn': 'Over target cost',
  'cost.usage': 'Cost used',
  'cost.noProjects': 'No project you may see',
  'cost.failed': 'The statistics could not be loaded: {message}',
  'cost.retry': 'Retry',
  'cost.statisticsLink': 'Project statistics',
  'cost.wan': '10k CNY',
  'cost.yuan': 'CNY',
  'cost.notRecorded': 'not recorded',
  'stats.title': 'Project statistics',
  'stats.project': 'Project',
  'stats.allProjects': 'All projects',
  'stats.export': 'Export',
  'stats.exportFile': 'Project statistics.xlsx',
  'stats.byType': 'By contract type (CNY)',
  'stats.chart': 'Contracted, settled and paid by contract type (10k CNY)',
  'stats.incomeTitle': 'Income and cost',
  'stats.incomeContract': 'Income contracts (with changes)',
  'stats.measured': 'Measured by the client',
  'stats.received': 'Received',
  'stats.noIncome': 'No permission to read income contracts',
  'stats.targetCost': 'Target cost',
  'stats.settledExcl': 'Settled cost (excl. tax)',
  'stats.usage': 'Target cost used',
  'stats.empty': 'No approved expense contract in this scope',
  'stats.total': 'Total',
  'stats.critical': 'Critical',
  'stats.warning': 'Warning',
  'stats.info': 'Info',
};

export const texts = { zh, en };

export function translateStats(lang: 'zh' | 'en', key: TextKey, values: Record<string, string | number> = {}): string {
  return fillPlaceholders(texts[lang][key], values);
}

/** The texts in the current language. */
export function useStatsTexts() {
  const lang = useAtomValue(langAtom);
  return useCallback((key: TextKey, values?: Record<string, string | number>) => translateStats(lang, key, values), [lang]);
}
