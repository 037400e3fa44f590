// A signed-in user opened a path that is none of their pages. A page that exists but is not granted
// to them (a document type's list, typed as /system/user or bookmarked before a grant was taken
// away) answers 403, "no permission"; a path that is no page at all answers 404. Besides the static
// routes (matched before this), the pages are the list pages of the document types, found in the
// catalog by their menu path or an earlier one, spelled as the router matches them.
import type { EntityModel } from '../../engine/model/types.ts';
import { Redirect } from 'wouter';
import { catalog } from '../renderers/catalog.ts';
import { sameSpelling } from '../state/menus.ts';

/** Whether `path` (with or without its /index child) is the list page of one of these document types. */
export function isDocumentPage(path: string, models: readonly EntityModel[]): boolean {
  const clean = path.replace(/\/index$/, '');
  return models.some((m) => m.menu && [m.menu.path, ...m.menu.formerPaths].some((known) => sameSpelling(known, clean)));
}

export default function NoPage({ path }: { path: string }) {
  const exists = isDocumentPage(path, Object.values(catalog().entities));
  return <Redirect to={exists ? '/403' : '/404'} replace />;
}
