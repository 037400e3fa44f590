// Early warnings in the form and on the document, for every document type the engine gives figures
// for (engine/warnings/auxiliary.ts): while one types, the engine's own rules run on the form's
// numbers and the figures `${api}/earlyWarningAuxiliaryData` answers (a monthly demand against its
// total plan, a settlement against its contract), so the warning the server will record on save shows
// before saving; a saved document also lists its open warning records (the document type playing
// the role warning.record).
import { useQueries, useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { hasRole, optionalEntityWithRole } from '../../../engine/model/roles.ts';
import type { EntityModel, Label } from '../../../engine/model/types.ts';
import { auxiliaryKind, hasWarningRules } from '../../../engine/warnings/auxiliary.ts';
import { decimalToJson, Dec } from '../../../engine/compute/decimal.ts';
import {
  amountCapWarnings,
  demandWarnings,
  supplementaryWarnings,
  WARN_TYPES,
  type GoodsFigures,
  type WarnSettings,
  type Warning,
} from '../../../engine/warnings/rules.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import { useHttp } from '../http-context.tsx';
import type { FormStore, Row } from './store.ts';

interface DemandFigures {
  planned: boolean;
  effectiveQty: number | string | null;
  cumulativeMonthlyDemandQty: number | string;
  thresholds: WarnSettings;
}

interface SettlementFigures {
  currentContractAmount: number | string | null;
  thresholds: WarnSettings;
}

const filled = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The store's rows of a detail, re-read whenever a row or the totals change. */
function useRows(store: FormStore, detail: string | undefined): Row[] {
  const [rows, setRows] = useState<Row[]>(() => (detail ? store.rows(detail) : []));
  useEffect(() => {
    if (!detail) return;
    setRows(store.rows(detail));
    return store.subscribe('totals', () => setRows(store.rows(detail)));
  }, [store, detail]);
  return rows;
}

/** R-DEM-1 live: each goods' figures, then the engine's rule over the form's lines. */
function useDemandWarnings(model: EntityModel, id: string | undefined, store: FormStore, header: Row, active: boolean): Warning[] {
  const http = useHttp();
  const detail = model.details.find((d) => 'demandQty' in d.fieldMap && 'goodsId' in d.fieldMap);
  const rows = useRows(store, active && hasRole(model, 'demand.monthly') ? detail?.name : undefined);
  const goods = [
    ...new Set(
      rows
        .map((r) => r.goodsId)
        .filter(filled)
        .map(String),
    ),
  ];
  const projectId = filled(header.projectId) ? String(header.projectId) : undefined;
  const answers = useQueries({
    queries: goods.map((goodsId) => ({
      queryKey: ['earlyWarning', model.key, projectId, header.materialTotalDemandId, goodsId, id],
      enabled: !!projectId,
      staleTime: 30_000,
      queryFn: () =>
        http.get<DemandFigures>(
          `${model.api}/earlyWarningAuxiliaryData`,
          {
            projectId: projectId!,
            goodsId,
            ...(filled(header.materialTotalDemandId) ? { materialTotalDemandId: String(header.materialTotalDemandId) } : {}),
            ...(id ? { excludeId: id } : {}),
          },
          { silent: true },
        ),
    })),
  });
  if (!projectId || !answers.length || answers.some((a) => !a.data)) return [];
  const figures = new Map<string, GoodsFigures>(
    goods.map((g, i) => {
      const a = answers[i].data!;
      return [g, { planned: a.planned && a.effectiveQty !== null ? a.effectiveQty : undefined, taken: a.cumulativeMonthlyDemandQty }];
    }),
  );
  const lines = rows
    .filter((r) => filled(r.goodsId) && filled(r.demandQty))
    .map((r) => ({ goodsId: String(r.goodsId), name: String(r.goodsName ?? ''), qty: r.demandQty as number }));
  return demandWarnings(lines, figures, answers[0].data!.thresholds);
}

/** R-CAP-3 live: the form's cumulative amount against the contract's current amount. */
function useSettlementWarnings(model: EntityModel, id: string | undefined, header: Row, active: boolean): Warning[] {
  const http = useHttp();
  const query =
    active && filled(header.projectId) && filled(header.expenditureContractCode)
      ? {
          projectId: String(header.projectId),
          expenditureContractCode: String(header.expenditureContractCode),
          ...(id ? { excludeId: id } : {}),
        }
      : undefined;
  const answer = useQuery({
    queryKey: ['earlyWarning', model.key, query],
    enabled: !!query,
    staleTime: 30_000,
    queryFn: () => http.get<SettlementFigures>(`${model.api}/earlyWarningAuxiliaryData`, query, { silent: true }),
  });
  if (!query || !answer.data || !filled(header.cumulativeAmount)) return [];
  return amountCapWarnings(header.cumulativeAmount as number, answer.data.currentContractAmount, answer.data.thresholds);
}

interface ContractFigures {
  contractAmount: number | string;
  originalContractCode: string;
  originalContractAmount: number | string;
  supplementaryAmount: number | string;
  thresholds: WarnSettings;
}

/**
 * R-SUPP live on a saved supplementary agreement: the answer's total holds the agreement at its stored
 * amount, which the amount being typed replaces. A new agreement is checked when saved.
 */
function useContractWarnings(model: EntityModel, id: string | undefined, header: Row, active: boolean): Warning[] {
  const http = useHttp();
  const query = active && id && filled(header.parentContractCode) ? { primaryId: id } : undefined;
  const answer = useQuery({
    queryKey: ['earlyWarning', model.key, query],
    enabled: !!query,
    staleTime: 30_000,
    queryFn: () => http.get<ContractFigures>(`${model.api}/earlyWarningAuxiliaryData`, query, { silent: true }),
  });
  const figures = answer.data;
  // the stored agreement must belong to the parent now chosen
  if (!query || !figures || figures.originalContractCode !== header.parentContractCode || !filled(header.contractAmount)) return [];
  const total = new Dec(String(figures.supplementaryAmount))
    .sub(new Dec(String(figures.contractAmount)))
    .add(new Dec(String(header.contractAmount)));
  return supplementaryWarnings(figures.originalContractAmount, decimalToJson(total), figures.thresholds);
}

/** The warnings the form's current numbers raise (empty for document types without live rules). */
export function useLiveWarnings(model: EntityModel, id: string | undefined, store: FormStore, header: Row, active: boolean): Warning[] {
  const kind = auxiliaryKind(model);
  const demand = useDemandWarnings(model, id, store, header, active && kind === 'demand');
  const settlement = useSettlementWarnings(model, id, header, active && kind === 'settlement');
  const contract = useContractWarnings(model, id, header, active && kind === 'contract');
  return [...demand, ...settlement, ...contract];
}

/** An alert listing warnings, red when one is critical. */
function WarningAlert({
  className,
  title,
  levels,
  items,
}: {
  className: string;
  title: string;
  levels: readonly { warnLevel: string }[];
  items: { key: string | number; text: string }[];
}) {
  return (
    <Alert
      className={className}
      type={levels.some((w) => w.warnLevel === 'critical') ? 'error' : 'warning'}
      showIcon
      style={{ marginBottom: 12 }}
      title={title}
      description={
        <ul style={{ margin: 0, paddingLeft: 18 }}>
          {items.map((i) => (
            <li key={i.key}>{i.text}</li>
          ))}
        </ul>
      }
    />
  );
}

/** The form's live warnings, above the fields. */
export function LiveWarnings({ warnings }: { warnings: readonly Warning[] }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  if (!warnings.length) return null;
  const items = warnings.map((w, i) => ({ key: i, text: `[${WARN_TYPES[w.warnType][lang]}] ${w.message[lang]}` }));
  return (
    <WarningAlert className="zs-live-warnings" title={t('warnings.live', { count: warnings.length })} levels={warnings} items={items} />
  );
}

interface TipRow {
  id: string;
  warnType: string;
  warnLevel: string;
  warnStatus: string;
  message: string;
}

/** A saved document's open warning records (unread or read), for its form and its detail. */
export function RecordedWarnings({ model, id }: { model: EntityModel; id: string | undefined }) {
  const http = useHttp();
  const t = useT();
  const lang = useAtomValue(langAtom);
  const records = optionalEntityWithRole(catalog(), 'warning.record');
  const enabled = !!id && !!records && hasWarningRules(model);
  const tips = useQuery({
    queryKey: ['warnings', 'recorded', model.key, id],
    enabled,
    queryFn: () =>
      http.get<{ records: TipRow[] }>(`${records!.api}/list`, { sourceEntity: model.key, sourceId: id!, size: 100 }, { silent: true }),
  });
  const open = (tips.data?.records ?? []).filter((w) => w.warnStatus === 'unread' || w.warnStatus === 'read');
  if (!enabled || !open.length) return null;
  // the stored message holds both languages: "zh / en"
  const text = (m: string) => (m.includes(' / ') ? m.split(' / ')[lang === 'en' ? 1 : 0] : m);
  const typeName = (type: string) => (WARN_TYPES as Record<string, Label>)[type]?.[lang] ?? type;
  const items = open.map((w) => ({ key: w.id, text: `[${typeName(w.warnType)}] ${text(w.message)}` }));
  return (
    <WarningAlert className="zs-recorded-warnings" title={t('warnings.recorded', { count: open.length })} levels={open} items={items} />
  );
}
