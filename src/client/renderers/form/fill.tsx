// Buttons that fill the form from a server route of the document's API (x-layout.fill): a monthly
// stock report generated from the ledger, a stocktake's book lines. The header values the action
// names go as the query; the answer replaces the rows (and, for a record, the header values it
// carries). Replacing rows already there asks first.
import { App, Button, Popconfirm } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { EntityModel, FillAction } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { useHttp } from '../http-context.tsx';
import type { FormStore, Row } from './store.ts';

const filled = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The rows an action replaces: its detail's, or every detail's for a record. */
function rowsReplaced(model: EntityModel, store: FormStore, action: FillAction): number {
  const details = action.detail ? [action.detail] : model.details.map((d) => d.name);
  return details.reduce((sum, d) => sum + store.keys(d).length, 0);
}

export interface FillButtonsProps {
  model: EntityModel;
  store: FormStore;
  header: Row;
  /** the header after a fill (the form is controlled) */
  onHeader: (header: Row) => void;
}

export function FillButtons({ model, store, header, onHeader }: FillButtonsProps) {
  const http = useHttp();
  const t = useT();
  const lang = useAtomValue(langAtom);
  const { message } = App.useApp();
  const [running, setRunning] = useState<string | null>(null);
  if (!model.layout.fill.length) return null;

  const run = async (action: FillAction) => {
    setRunning(action.route);
    try {
      const query = Object.fromEntries(
        Object.entries(action.params)
          .filter(([, f]) => filled(header[f]))
          .map(([name, f]) => [name, String(header[f])]),
      );
      const answer = await http.get<Row | Row[]>(`${model.api}/${action.route}`, query);
      const count = store.fill(answer ?? [], action.detail);
      onHeader(store.header);
      void message.success(t('form.filled', { count }));
    } catch {
      // the client has shown the server's message; the form is unchanged
    } finally {
      setRunning(null);
    }
  };

  return (
    <div className="zs-form-fill" style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
      {model.layout.fill.map((action) => {
        const missing = action.required.filter((p) => !filled(header[p])).map((p) => model.fieldMap[p].label[lang]);
        const replaces = rowsReplaced(model, store, action);
        const button = (
          <Button
            key={action.route}
            disabled={missing.length > 0}
            loading={running === action.route}
            title={missing.length ? t('form.fillNeeds', { fields: missing.join(lang === 'zh' ? '、' : ', ') }) : undefined}
            onClick={replaces ? undefined : () => void run(action)}
          >
            {action.title[lang]}
          </Button>
        );
        if (!replaces || missing.length) return button;
        return (
          <Popconfirm key={action.route} title={t('form.fillReplaces', { count: replaces })} onConfirm={() => void run(action)}>
            {button}
          </Popconfirm>
        );
      })}
    </div>
  );
}
