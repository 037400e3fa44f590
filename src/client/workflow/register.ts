// The approval actions of every document type with x-workflow (提交 on draft, rejected, withdrawn or
// terminated rows, 撤回 on approving ones the server says the caller may recall, 流程图 where an
// instance exists), added to the renderers' extension registry. The catalog and the dialogs load apart
// from the first bundle: once someone is signed in, the catalog's chunk (which every list page
// needs anyway) is fetched and the actions registered; each dialog loads on first use. The login
// page never fetches the catalog for this.
import type { EntityCatalog } from '../../engine/model/types.ts';
import { lazyDialog } from '../admin/lazy-dialog.ts';
import { en, zh, type MessageKey } from '../i18n/messages.ts';
import { registerExtension, type Row } from '../renderers/extensions.ts';
import { appStore, userInfoAtom } from '../state/session.ts';

const label = (key: MessageKey) => ({ zh: zh[key], en: en[key] });

const SubmitDialog = lazyDialog(() => import('./DocumentActions.tsx').then((m) => ({ default: m.SubmitDialog })));
const RecallDialog = lazyDialog(() => import('./DocumentActions.tsx').then((m) => ({ default: m.RecallDialog })));
const DiagramDialog = lazyDialog(() => import('./DocumentActions.tsx').then((m) => ({ default: m.DiagramDialog })));

let registered = false;

/** Adds 提交 / 撤回 / 流程图 to the rows of each workflow document's list (once). */
export function registerWorkflowActions(catalog: EntityCatalog): void {
  if (registered) return;
  registered = true;
  for (const model of Object.values(catalog.entities)) {
    const wf = model.workflow;
    if (!wf) continue;
    const status = (row: Row) => String(row[wf.statusField] ?? 'draft');
    registerExtension(model.key, {
      rowActions: [
        { key: 'workflow-submit', label: label('workflow.submit'), dialog: SubmitDialog, appliesTo: (row) => SUBMITTABLE.has(status(row)) },
        // only the submitter may recall, while nobody has acted: the server says so in the row (canRecall)
        {
          key: 'workflow-recall',
          label: label('workflow.recall'),
          dialog: RecallDialog,
          appliesTo: (row) => status(row) === 'approving' && row.canRecall === true,
        },
        {
          key: 'workflow-diagram',
          label: label('workflow.diagram'),
          dialog: DiagramDialog,
          appliesTo: (row) => Boolean(wf.instanceField && row[wf.instanceField]),
        },
      ],
    });
  }
}

/** The statuses a document may be submitted from (as the server's submit accepts). */
const SUBMITTABLE = new Set(['draft', 'rejected', 'withdrawn', 'terminated']);

function whenSignedIn(run: () => void) {
  if (appStore.get(userInfoAtom)) return run();
  const stop = appStore.sub(userInfoAtom, () => {
    if (!appStore.get(userInfoAtom)) return;
    stop();
    run();
  });
}

// the shell loads the schema set after sign-in (app/CatalogGate.tsx): register once it has
whenSignedIn(() => void import('../renderers/catalog.ts').then(({ whenCatalogReady }) => whenCatalogReady()).then(registerWorkflowActions));
