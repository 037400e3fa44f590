// What a document page has open over its list, kept in the address's fragment so that a reload, a
// bookmark or a link brings it back: #edit=<id> (the form of that record), #view=<id> (its detail),
// #add (a new record's form). The fragment, not the query: the query holds the list's filters, and a
// new query opens the list afresh (EntityPage), which opening a form must not do.
import type { StandardAction } from './list/useListActions.tsx';

export type Opened = { mode: 'create' | 'edit' | 'view'; id?: string } | null;

/** What the fragment opens, among what the user may do (`granted`); null for nothing or anything else. */
export function openedFromHash(hash: string, granted: (action: StandardAction) => boolean): Opened {
  if (hash === '#add') return granted('add') ? { mode: 'create' } : null;
  const found = /^#(edit|view)=([^&=#]+)$/.exec(hash);
  if (!found) return null;
  const id = decodeURIComponent(found[2]);
  if (found[1] === 'edit') return granted('edit') ? { mode: 'edit', id } : { mode: 'view', id };
  return { mode: 'view', id };
}

/** The fragment that says what is open ('' for nothing). */
export function hashOf(opened: Opened): string {
  if (!opened) return '';
  if (opened.mode === 'create') return '#add';
  return opened.id ? `#${opened.mode}=${encodeURIComponent(opened.id)}` : '';
}

/** Rewrites the current address's fragment in place: no new history entry, the path and query unchanged. */
export function writeHash(opened: Opened) {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hashOf(opened)}`);
}
