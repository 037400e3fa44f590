// Where a document type's list opens for this user, with a search in its address (list/urlFilters.ts):
// the dashboards' figures and a document's related documents link there. No link when the user has
// no menu for the list (the page would be refused anyway).
import { useAtomValue } from 'jotai';
import { useCallback, useMemo } from 'react';
import type { EntityModel } from '../../engine/model/types.ts';
import { pageMenus } from '../state/menus.ts';
import { menusAtom } from '../state/session.ts';
import { listHref } from './list/urlFilters.ts';

export type ListSearch = Record<string, string | number | undefined | null>;

/** (model, search) → the list's address with that search, or undefined when the user cannot open it. */
export function useListLink(): (model: EntityModel | undefined, search?: ListSearch) => string | undefined {
  const menus = useAtomValue(menusAtom);
  const paths = useMemo(() => new Set(pageMenus(menus).map((m) => m.path)), [menus]);
  return useCallback(
    (model, search = {}) => (model?.menu && paths.has(model.menu.path) ? listHref(model.menu.path, search) : undefined),
    [paths],
  );
}
