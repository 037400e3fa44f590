// Every figure of the statistics opens the documents it adds up (issue #9): a contract type's contract
// figures the contract ledger (expense contracts of the project and type, approved, as summed), its
// settled figures the settlements, paid the final settlements, income the income contracts, a month of
// the trend that month's settlements, a funnel stage its documents. Document types are found by role;
// the list opens filtered through its address (renderers/list/urlFilters.ts). Where several document
// types play a role (the monthly settlements of every kind), the figure opens a menu of them.
import { Dropdown, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { entitiesWithRole } from '../../engine/model/roles.ts';
import type { EntityModel } from '../../engine/model/types.ts';
import type { FunnelStage } from '../../engine/statistics/dashboards.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';
import { catalog } from '../renderers/catalog.ts';
import { useListLink, type ListSearch } from '../renderers/links.ts';
import { langAtom } from '../state/session.ts';

export interface DocLink {
  key: string;
  label: string;
  href: string;
}

const R = STATISTICS_ROLES;
const FUNNEL_ROLES: Record<FunnelStage, string> = {
  planned: R.totalDemand, monthlyDemand: R.monthlyDemand, procured: R.procurement, supplied: R.supply, received: R.stockReceipt, consumed: R.stockReport,
};

/** The lists behind the figures of one project (or of every project the user sees). */
export function useStatisticsLinks(projectId?: string) {
  const linkOf = useListLink();
  const lang = useAtomValue(langAtom);
  return useMemo(() => {
    const approved: ListSearch = { projectId, approvalStatus: 'approved' };
    const of = (role: string, search: ListSearch): DocLink[] => entitiesWithRole(catalog(), role).flatMap((m: EntityModel) => {
      const href = linkOf(m, search);
      return href ? [{ key: m.key, label: m.label[lang], href }] : [];
    });
    return {
      /** The contract ledger of a type (all types for null). */
      contracts: (type: string | null) => of(R.expenseContract, { ...approved, expenditureContractType: type }),
      income: () => of(R.incomeContract, approved),
      /** The approved settlements of the project, of one period when given. */
      settlements: (period?: string) => of(R.settlement, { ...approved, period }),
      finals: () => of(R.finalSettlement, approved),
      stage: (stage: FunnelStage) => of(FUNNEL_ROLES[stage], approved),
    };
  }, [projectId, linkOf, lang]);
}

/** A figure that opens its documents: a link to one list, a menu of several, plain text for none. */
export function DocLinks({ links, children, testId }: { links: DocLink[]; children: React.ReactNode; testId?: string }) {
  const [, navigate] = useLocation();
  if (!links.length) return <>{children}</>;
  if (links.length === 1) return <Link href={links[0].href} data-testid={testId}>{children}</Link>;
  return (
    <Dropdown trigger={['click']} menu={{ items: links.map((l) => ({ key: l.key, label: l.label })), onClick: ({ key }) => navigate(links.find((l) => l.key === key)!.href) }}>
      <Typography.Link data-testid={testId}>{children}</Typography.Link>
    </Dropdown>
  );
}
