// Tab rules: closing a tab opens its neighbour, the only tab cannot close, the home tab
// never closes; "close others" keeps home and the current one; "close all" keeps home.
import type { Tab } from '../state/session.ts';

export interface TabsResult {
  tabs: Tab[];
  /** Where to go, when the current tab went away. */
  goTo?: string;
}

export function closeTab(tabs: Tab[], value: string, current: string): TabsResult {
  const index = tabs.findIndex((t) => t.value === value);
  if (index < 0 || tabs.length <= 1 || !tabs[index].close) return { tabs };
  const rest = tabs.filter((t) => t.value !== value);
  if (value !== current) return { tabs: rest };
  const neighbour = tabs[index + 1] ?? tabs[index - 1];
  return { tabs: rest, goTo: neighbour.value };
}

export function closeOthers(tabs: Tab[], current: string): TabsResult {
  return { tabs: tabs.filter((t) => !t.close || t.value === current) };
}

export function closeAll(tabs: Tab[], home: string): TabsResult {
  return { tabs: tabs.filter((t) => !t.close), goTo: home };
}
