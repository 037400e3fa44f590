// The approval actions of every document type with x-workflow (提交 on draft, rejected, withdrawn or
// terminated rows, 撤回 on approving ones the server says the caller may recall, 流程图 where an
// instance exists), for the renderers' registry (app/CatalogGate.tsx, once the catalog is loaded).
// Each dialog loads on first use.
import type { EntityCatalog } from '../../engine/model/types.ts';
import { lazyDialog } from '../admin/lazy-dialog.ts';
import type { EntityExtension, Row } from '../renderers/extensions.ts';

const SubmitDialog = lazyDialog(() => import('./DocumentActions.tsx').then((m) => ({ default: m.SubmitDialog })));
const RecallDialog = lazyDialog(() => import('./DocumentActions.tsx').then((m) => ({ default: m.RecallDialog })));
const DiagramDialog = lazyDialog(() => import('./DocumentActions.tsx').then((m) => ({ default: m.DiagramDialog })));

/** 提交 / 撤回 / 流程图 on the rows of each workflow document's list, by entity key. */
export function workflowActions(catalog: EntityCatalog): Record<string, EntityExtension> {
  const actions: Record<string, EntityExtension> = {};
  for (const model of Object.values(catalog.entities)) {
    const wf = model.workflow;
    if (!wf) continue;
    const status = (row: Row) => String(row[wf.statusField] ?? 'draft');
    actions[model.key] = {
      rowActions: [
        { key: 'workflow-submit', label: 'workflow.submit', dialog: SubmitDialog, appliesTo: (row) => SUBMITTABLE.has(status(row)) },
        // only the submitter may recall, while nobody has acted: the server says so in the row (canRecall)
        {
          key: 'workflow-recall',
          label: 'workflow.recall',
          dialog: RecallDialog,
          appliesTo: (row) => status(row) === 'approving' && row.canRecall === true,
        },
        {
          key: 'workflow-diagram',
          label: 'workflow.diagram',
          dialog: DiagramDialog,
          appliesTo: (row) => Boolean(wf.instanceField && row[wf.instanceField]),
        },
      ],
    };
  }
  return actions;
}

/** The statuses a document may be submitted from (as the server's submit accepts). */
const SUBMITTABLE = new Set(['draft', 'rejected', 'withdrawn', 'terminated']);
