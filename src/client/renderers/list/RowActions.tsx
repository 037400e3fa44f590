// The buttons of one list row: view / edit / delete as the schema lists them (x-list rowActions)
// and the user may press them, then the entity's extra row actions.
import { useAtomValue } from 'jotai';
import { t as engineT } from '../../../engine/i18n/messages.ts';
import type { EntityModel, Lang } from '../../../engine/model/types.ts';
import { matches } from '../../../engine/predicate/predicate.ts';
import { approvalLock } from '../../../engine/workflow/lock.ts';
import { renderWorkflowMessage } from '../../../engine/workflow/messages.ts';
import { translate } from '../../i18n/useT.ts';
import { langAtom, userInfoAtom } from '../../state/session.ts';
import type { Row } from '../extensions.ts';
import type { ListActions, StandardAction } from './useListActions.tsx';

type RowAction = Extract<StandardAction, 'view' | 'edit' | 'delete'>;

const LABEL_KEYS = { view: 'common.view', edit: 'list.edit', delete: 'common.delete' } as const;

/** The standard row buttons shown to this user (disabled ones included). */
export function rowButtons(model: EntityModel, actions: ListActions): RowAction[] {
  return (model.list.rowActions as RowAction[]).filter((a) => actions.granted(a));
}

/** Room the actions column needs for the labels it shows. */
export function actionsWidth(model: EntityModel, actions: ListActions, lang: Lang): number {
  const labels = [
    ...rowButtons(model, actions).map((a) => translate(lang, LABEL_KEYS[a])),
    ...actions.rowActions.map((a) => translate(lang, a.label)),
  ];
  const perChar = lang === 'zh' ? 14 : 7.5;
  return Math.max(80, Math.ceil(labels.reduce((sum, l) => sum + l.length * perChar + 12, 28)));
}

export interface RowActionsProps {
  model: EntityModel;
  row: Row;
  actions: ListActions;
  onOpen: (mode: 'edit' | 'view', row: Row) => void;
}

/** Link-style buttons, drawn by the list's stylesheet: rows mount and unmount while a long list scrolls, so they stay light. */
function LinkButton({
  label,
  danger,
  disabled,
  title,
  onClick,
}: {
  label: string;
  danger?: boolean;
  disabled?: boolean;
  title?: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className={`zs-grid-link${danger ? ' danger' : ''}`} disabled={disabled} title={title} onClick={onClick}>
      {label}
    </button>
  );
}

export function RowActions({ model, row, actions, onOpen }: RowActionsProps) {
  const lang = useAtomValue(langAtom);
  const userInfo = useAtomValue(userInfoAtom);
  const press = (action: RowAction) => (action === 'delete' ? actions.remove([String(row.id)]) : onOpen(action, row));
  // a document under approval is shown, not changed: edit and delete say why they are off
  const lock = approvalLock(model, row);
  const lockedOut = (action: RowAction) => Boolean(lock) && action !== 'view';
  const name = String(row[model.titleField ?? 'id'] ?? '');
  // a record that is never removed (x-entity.permanentIf: the platform tenant) offers no delete
  const permanent = model.permanentIf !== undefined && matches(model.permanentIf, row);
  // one nobody changes (x-entity.fixedIf: a built-in rule), or a tenant the platform's shared row
  // (x-entity.tenantRows), offers neither edit nor delete
  const fixed = model.fixedIf !== undefined && matches(model.fixedIf, row);
  const shared = model.tenantRows && row.tenantId !== undefined && String(row.tenantId) !== String(userInfo?.tenant_id ?? row.tenantId);
  const kept = (action: RowAction) => action !== 'view' && (fixed || shared || (permanent && action === 'delete'));
  const why = (action: RowAction) => {
    if (lockedOut(action)) return renderWorkflowMessage(lock!, lang);
    if (!kept(action)) return undefined;
    if (fixed) return engineT('fixedRecord', lang, { name, entity: model.label });
    if (shared) return engineT('sharedRecord', lang, { name, entity: model.label });
    return engineT('permanent', lang, { name });
  };
  return (
    <span className="zs-grid-actions">
      {rowButtons(model, actions).map((action) => (
        <LinkButton
          key={action}
          label={translate(lang, LABEL_KEYS[action])}
          danger={action === 'delete'}
          disabled={actions.disabled(action) || lockedOut(action) || kept(action)}
          title={why(action)}
          onClick={() => press(action)}
        />
      ))}
      {actions.rowActions
        .filter((action) => action.appliesTo?.(row) ?? true)
        .map((action) => (
          <LinkButton
            key={action.key}
            label={translate(lang, action.label)}
            danger={action.danger}
            onClick={() => actions.run(action, [row])}
          />
        ))}
    </span>
  );
}
