// Every figure of the statistics opens the documents it adds up (issue #9): a contract type's contract
// figures the contract ledger (expense contracts of the project and type, approved, as summed), its
// settled figures the settlements, paid the final settlements, income the income contracts, a month of
// the trend that month's settlements, a funnel stage its documents. Document types are found by role;
// the list opens filtered through its address (renderers/list/urlFilters.ts). Where several document
// types play a role (the monthly settlements of every kind), the figure opens a menu of them; a contract
// type's settled figures find, when the menu opens, which settlement types hold settlements on that
// type's contracts (and how many), and link to those only (to the one contract when there is one).
import { useQuery } from '@tanstack/react-query';
import { Dropdown, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { entitiesWithRole, entityWithRole, fieldWithRole } from '../../../../engine/model/roles.ts';
import type { EntityModel } from '../../../../engine/model/types.ts';
import type { FunnelStage } from '../../engine/statistics/dashboards.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import type { Row } from '../../../../client/renderers/extensions.ts';
import { useHttp } from '../../../../client/renderers/http-context.tsx';
import { useListLink, type ListSearch } from '../../../../client/renderers/links.ts';
import { langAtom } from '../../../../client/state/session.ts';
import { useT } from '../../../../client/i18n/useT.ts';

export interface DocLink {
  key: string;
  label: string;
  href: string;
}

const R = STATISTICS_ROLES;
const FUNNEL_ROLES: Record<FunnelStage, string> = {
  planned: R.totalDemand,
  monthlyDemand: R.monthlyDemand,
  procured: R.procurement,
  supplied: R.supply,
  received: R.stockReceipt,
  consumed: R.stockReport,
};

/**
 * A list search by field role ({"master.project": id} → {projectId: id}): each value under the name
 * of the document type's field playing its role (x-entity.fieldRoles); roles it has no field for are left out.
 */
export function searchByRole(model: EntityModel, values: Readonly<Record<string, string | null | undefined>>): ListSearch {
  return Object.fromEntries(
    Object.entries(values).flatMap(([role, value]) => {
      const field = fieldWithRole(catalog().entities, model, role);
      return field ? [[field.name, value]] : [];
    }),
  );
}

/** A list search of a document type's approved documents (of one project, when given). */
function approvedSearch(model: EntityModel, projectId: string | undefined): ListSearch {
  return { ...searchByRole(model, { [R.projects]: projectId }), ...(model.workflow && { [model.workflow.statusField]: 'approved' }) };
}

/** The lists behind the figures of one project (or of every project the user sees). */
export function useStatisticsLinks(projectId?: string) {
  const linkOf = useListLink();
  const lang = useAtomValue(langAtom);
  return useMemo(() => {
    const of = (role: string, search: Record<string, string | null | undefined> = {}): DocLink[] =>
      entitiesWithRole(catalog(), role).flatMap((m: EntityModel) => {
        const href = linkOf(m, { ...approvedSearch(m, projectId), ...searchByRole(m, search) });
        return href ? [{ key: m.key, label: m.label[lang], href }] : [];
      });
    return {
      /** The contract ledger of a type (all types for null). */
      contracts: (type: string | null) => of(R.expenseContract, { contractType: type }),
      income: () => of(R.incomeContract),
      /** The approved settlements of the project, of one period when given. */
      settlements: (period?: string) => of(R.settlement, { period }),
      finals: () => of(R.finalSettlement),
      stage: (stage: FunnelStage) => of(FUNNEL_ROLES[stage]),
    };
  }, [projectId, linkOf, lang]);
}

/** A figure that opens its documents: a link to one list, a menu of several, plain text for none. */
export function DocLinks({ links, children, testId }: { links: DocLink[]; children: React.ReactNode; testId?: string }) {
  const [, navigate] = useLocation();
  if (!links.length) return <>{children}</>;
  if (links.length === 1)
    return (
      <Link href={links[0].href} data-testid={testId}>
        {children}
      </Link>
    );
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: links.map((l) => ({ key: l.key, label: l.label })),
        onClick: ({ key }) => navigate(links.find((l) => l.key === key)!.href),
      }}
    >
      <Typography.Link data-testid={testId}>{children}</Typography.Link>
    </Dropdown>
  );
}

/** The largest page the list API answers: the documents of one project and type fit in it. */
const PAGE = 500;

/** The list API's query of a document type's approved documents, by field role: it filters by `<field>_equal`. */
function listQuery(model: EntityModel, projectId: string | undefined, byRole: Record<string, string> = {}) {
  const search = { ...approvedSearch(model, projectId), ...searchByRole(model, byRole) };
  const equal = Object.entries(search).flatMap(([field, value]) =>
    value === undefined || value === null || value === '' ? [] : [[`${field}_equal`, value]],
  );
  return { ...Object.fromEntries(equal), size: PAGE };
}

/**
 * A contract type's settled figure: on opening, the approved contracts of the type (and project), then
 * each settlement type's approved settlements of the project on those contracts, counted; the menu
 * lists the settlement types that have some, each filtered to the contract when only one is settled.
 */
export function TypeSettlementLinks({
  projectId,
  type,
  children,
  testId,
}: {
  projectId?: string;
  type: string;
  children: React.ReactNode;
  testId?: string;
}) {
  const t = useT();
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const linkOf = useListLink();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const settlementTypes = entitiesWithRole(catalog(), R.settlement).filter((m) => linkOf(m));
  const found = useQuery({
    queryKey: ['statistics', 'typeSettlements', projectId ?? '', type],
    enabled: open && settlementTypes.length > 0,
    staleTime: 30_000,
    queryFn: async (): Promise<DocLink[]> => {
      const contractModel = entityWithRole(catalog(), R.expenseContract);
      const contracts = await http.get<{ records: Row[] }>(
        `${contractModel.api}/list`,
        listQuery(contractModel, projectId, { contractType: type }),
        { silent: true },
      );
      // the server binds the contract's numbering (x-entity.code): what settlements refer to it by
      const codes = new Set(contracts.records.map((c) => String(c[contractModel.code!.field])));
      const pages = await Promise.all(
        settlementTypes.map((m) => http.get<{ records: Row[] }>(`${m.api}/list`, listQuery(m, projectId), { silent: true })),
      );
      return settlementTypes.flatMap((m, i) => {
        const contractRef = fieldWithRole(catalog().entities, m, R.expenseContract)!.name;
        const contractOf = (r: Row) => String(r[contractRef]);
        const mine = pages[i].records.filter((r) => codes.has(contractOf(r)));
        if (!mine.length) return [];
        const onContracts = [...new Set(mine.map(contractOf))];
        const only = onContracts.length === 1 ? onContracts[0] : undefined;
        const href = linkOf(m, { ...approvedSearch(m, projectId), ...searchByRole(m, { [R.expenseContract]: only }) })!;
        return [{ key: m.key, label: `${m.label[lang]} ${mine.length}`, href }];
      });
    },
  });
  if (!settlementTypes.length) return <>{children}</>;
  const notice = (key: string, label: string) => [{ key, label, disabled: true }];
  let items = notice('finding', t('links.finding'));
  if (found.error) items = notice('failed', t('dash.failed', { message: found.error.message }));
  else if (found.data)
    items = found.data.length ? found.data.map((l) => ({ key: l.key, label: l.label, disabled: false })) : notice('none', t('links.none'));
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        items,
        onClick: ({ key }) => {
          const l = found.data?.find((x) => x.key === key);
          if (l) navigate(l.href);
        },
      }}
    >
      <Typography.Link data-testid={testId}>{children}</Typography.Link>
    </Dropdown>
  );
}
