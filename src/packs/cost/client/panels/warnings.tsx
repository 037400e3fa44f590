// Early warnings in the form, in the submit confirmation and on the document, for every document type
// with warning rules (packs/cost/engine/warnings/auxiliary.ts hasPreview): while one types, the form's record goes
// to `${api}/earlyWarningPreview`, which runs the very evaluators a save runs on the project's figures,
// so the form shows what the save (and the approver) will see — level, figure and threshold — before
// saving; submitting asks again and lists them; a saved document also lists its open warning records
// (the document type playing the role warning.record).
import { useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { Alert, Tag } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import type { EntityModel, Label } from '../../../../engine/model/types.ts';
import { hasPreview, hasWarningRules, projectField } from '../../engine/warnings/auxiliary.ts';
import { WARN_TYPES } from '../../engine/warnings/rules.ts';
import { useT } from '../../../../client/i18n/useT.ts';
import { langAtom } from '../../../../client/state/session.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { useHttp, type RendererHttp } from '../../../../client/renderers/http-context.tsx';
import type { FormStore, Row } from '../../../../client/renderers/form/store.ts';

export type WarnLevel = 'info' | 'warning' | 'critical';

/** One warning as `${api}/earlyWarningPreview` answers it, in the caller's language. */
export interface PreviewedWarning {
  warnType: string;
  typeName: string;
  warnLevel: WarnLevel;
  message: string;
  actualValue: number | string | null;
  thresholdValue: number | string | null;
}

export interface Preview {
  warnings: PreviewedWarning[];
  hardControl: boolean;
}

const NONE: Preview = { warnings: [], hardControl: false };
/** How long typing pauses before the form asks again. */
const PAUSE_MS = 400;

const filled = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Whether the document may be previewed: it has warning rules and a project (its field playing master.project). */
const previewed = (model: EntityModel) => hasPreview(model, catalog().entities);

/** Whether the form's record names its project: the warnings are a project's. */
function onProject(model: EntityModel, record: Row): boolean {
  const field = projectField(model, catalog().entities);
  return !!field && filled(record[field.name]);
}

/** The record a save would send, with the id of the document being edited. */
function recordOf(store: FormStore, id: string | undefined): Row {
  return { ...store.record(), ...(id ? { id } : {}) };
}

/** The warnings saving `record` would raise. */
export function previewOf(http: RendererHttp, model: EntityModel, record: Row): Promise<Preview> {
  return http.post<Preview>(`${model.api}/earlyWarningPreview`, record, { silent: true });
}

/** The warnings submitting a stored document would raise. */
export function storedPreviewOf(http: RendererHttp, model: EntityModel, id: string): Promise<Preview> {
  return http.get<Preview>(`${model.api}/earlyWarningPreview`, { id }, { silent: true });
}

/** The form's record, taken again once typing in the header or a row has paused. */
function usePausedRecord(store: FormStore, id: string | undefined, header: Row, active: boolean): Row | undefined {
  const [record, setRecord] = useState<Row>();
  const [changes, setChanges] = useState(0);
  useEffect(() => (active ? store.subscribe('totals', () => setChanges((n) => n + 1)) : undefined), [store, active]);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setRecord(recordOf(store, id)), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [store, id, header, changes, active]);
  return active ? record : undefined;
}

/** The warnings the form's current figures raise (none for document types without rules, or before a project is chosen). */
export function useLiveWarnings(model: EntityModel, id: string | undefined, store: FormStore, header: Row, active: boolean): Preview {
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const enabled = active && previewed(model);
  const record = usePausedRecord(store, id, header, enabled);
  const asked = !!record && onProject(model, record);
  const answer = useQuery({
    queryKey: ['warnings', 'preview', model.key, lang, record],
    enabled: asked,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    queryFn: () => previewOf(http, model, record!),
  });
  return asked && answer.data ? answer.data : NONE;
}

/** Asks the preview of the form's record now (for the submit confirmation), through the query cache. */
export function useAskPreview(model: EntityModel, id: string | undefined, store: FormStore): () => Promise<Preview> {
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const queryClient = useQueryClient();
  return async () => {
    const record = recordOf(store, id);
    if (!previewed(model) || !onProject(model, record)) return NONE;
    return queryClient.fetchQuery({
      queryKey: ['warnings', 'preview', model.key, lang, record],
      staleTime: 0,
      queryFn: () => previewOf(http, model, record),
    });
  };
}

/** The preview of a stored document (the list's 提交 dialog). */
export function useStoredPreview(model: EntityModel, id: string, active: boolean) {
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  return useQuery({
    queryKey: ['warnings', 'stored', model.key, lang, id],
    enabled: active && !!id && previewed(model),
    staleTime: 0,
    queryFn: () => storedPreviewOf(http, model, id),
  });
}

const LEVEL_COLORS: Record<WarnLevel, string> = { critical: 'red', warning: 'orange', info: 'blue' };

/** 1234567.5 → "1,234,567.5": a figure as the warning list shows it, its decimals kept. */
export function figureText(v: number | string): string {
  const [whole, fraction] = String(v).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** One warning: its level, rule and message, and the figure against its threshold. */
export function WarningItem({ warning }: { warning: PreviewedWarning }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const figures = [
    filled(warning.actualValue) ? t('warnings.figure', { value: figureText(warning.actualValue!) }) : '',
    filled(warning.thresholdValue) ? t('warnings.threshold', { value: figureText(warning.thresholdValue!) }) : '',
  ].filter(Boolean);
  return (
    <li className={`zs-warning zs-warning-${warning.warnLevel}`}>
      <Tag color={LEVEL_COLORS[warning.warnLevel]}>{t(`warnings.level.${warning.warnLevel}`)}</Tag>
      {`[${warning.typeName}] ${warning.message}`}
      {figures.length > 0 && (
        <span className="zs-warning-figures">{lang === 'zh' ? `(${figures.join(',')})` : ` (${figures.join(', ')})`}</span>
      )}
    </li>
  );
}

const SEVERITY: Record<WarnLevel, number> = { critical: 0, warning: 1, info: 2 };

/** The warnings, the critical ones first. */
export function WarningItems({ warnings }: { warnings: readonly PreviewedWarning[] }) {
  const ordered = [...warnings].sort((a, b) => SEVERITY[a.warnLevel] - SEVERITY[b.warnLevel]);
  return (
    <ul style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
      {ordered.map((w, i) => (
        <WarningItem key={i} warning={w} />
      ))}
    </ul>
  );
}

/** "本单将触发 2 条预警(其中严重 1 条):", the list, and what submitting will do. */
export function SubmitWarnings({ preview }: { preview: Preview }) {
  const t = useT();
  const critical = preview.warnings.filter((w) => w.warnLevel === 'critical').length;
  const count = preview.warnings.length;
  return (
    <div className="zs-submit-warnings">
      <p style={{ marginBottom: 8 }}>{t(critical ? 'warnings.submitCritical' : 'warnings.submitCount', { count, critical })}</p>
      <WarningItems warnings={preview.warnings} />
      {preview.hardControl && critical > 0 && <Alert style={{ marginTop: 8 }} type="error" showIcon title={t('warnings.hardControl')} />}
      <p style={{ marginTop: 8, marginBottom: 0 }}>{t('workflow.submitAnyway')}</p>
    </div>
  );
}

/** Whether hard control will refuse the submission. */
export const refused = (preview: Preview) => preview.hardControl && preview.warnings.some((w) => w.warnLevel === 'critical');

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
export function LiveWarnings({ warnings }: { warnings: readonly PreviewedWarning[] }) {
  const t = useT();
  if (!warnings.length) return null;
  return (
    <Alert
      className="zs-live-warnings"
      type={warnings.some((w) => w.warnLevel === 'critical') ? 'error' : 'warning'}
      showIcon
      style={{ marginBottom: 12 }}
      title={t('warnings.live', { count: warnings.length })}
      description={<WarningItems warnings={warnings} />}
    />
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
