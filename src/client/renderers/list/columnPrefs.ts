// A person's column settings of one list (order, hidden columns, widths), kept in local storage
// under the user's id and the entity key, in the platform's storage format
// (`zhusuan-list-columns-<userId>-<entity>`), so they come back after a reload or a new login.
import type { ColumnOrderState, ColumnSizingState, ColumnVisibilityState } from '@tanstack/react-table';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { userInfoAtom } from '../../state/session.ts';
import { getStore, removeStore, setStore } from '../../state/storage.ts';

export interface ColumnPrefs {
  order: ColumnOrderState;
  visibility: ColumnVisibilityState;
  sizing: ColumnSizingState;
}

export function prefsName(userId: string, entity: string): string {
  return `list-columns-${userId}-${entity}`;
}

/** The field columns of the schema, in schema order. */
export function schemaColumns(model: EntityModel): string[] {
  return model.list.columns.map((c) => c.field).filter((f) => model.fieldMap[f]);
}

/** Stored settings checked against today's schema: unknown columns dropped, new ones appended. */
function restore(model: EntityModel, stored: Partial<ColumnPrefs> | undefined): ColumnPrefs {
  const known = schemaColumns(model);
  const order = (stored?.order ?? []).filter((id) => known.includes(id));
  const visibility = Object.fromEntries(Object.entries(stored?.visibility ?? {}).filter(([id]) => known.includes(id)));
  const sizing = Object.fromEntries(
    Object.entries(stored?.sizing ?? {}).filter(([id, w]) => known.includes(id) && typeof w === 'number' && w > 0),
  );
  return { order: [...order, ...known.filter((id) => !order.includes(id))], visibility, sizing };
}

export function useColumnPrefs(model: EntityModel) {
  const userId = useAtomValue(userInfoAtom)?.user_id ?? 'anonymous';
  const name = prefsName(userId, model.key);
  const [prefs, setPrefs] = useState<ColumnPrefs>(() => restore(model, getStore<ColumnPrefs>(name)));
  const [changed, setChanged] = useState(false);

  useEffect(() => {
    if (changed) setStore(name, prefs);
  }, [changed, name, prefs]);

  const update = useCallback((patch: Partial<ColumnPrefs>) => {
    setChanged(true);
    setPrefs((current) => ({ ...current, ...patch }));
  }, []);

  const reset = useCallback(() => {
    removeStore(name);
    setChanged(false);
    setPrefs(restore(model, undefined));
  }, [model, name]);

  return { prefs, update, reset };
}
