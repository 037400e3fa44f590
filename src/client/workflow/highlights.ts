// Which diagram elements to mark from an instance's model-view flow: a sequenceFlow entry is a line
// taken, an entry without endTime the node where the process waits now, the others finished nodes.
import type { ModelView } from './api.ts';

export interface Highlights {
  done: string[];
  active: string[];
  taken: string[];
}

export function highlightsOf(flow: ModelView['flow']): Highlights {
  const done = new Set<string>();
  const active = new Set<string>();
  const taken = new Set<string>();
  for (const entry of flow) {
    if (entry.historyActivityType === 'sequenceFlow') taken.add(entry.historyActivityId);
    else if (!entry.endTime) active.add(entry.historyActivityId);
    else done.add(entry.historyActivityId);
  }
  for (const id of active) done.delete(id);
  return { done: [...done], active: [...active], taken: [...taken] };
}

export const MARKERS = { done: 'zs-flow-done', active: 'zs-flow-active', taken: 'zs-flow-taken' } as const;
