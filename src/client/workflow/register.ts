// The approval actions of every document type with x-workflow (提交 / 撤回 / 流程图 on each row of
// its list), added to the renderers' extension registry. The catalog and the dialogs load apart
// from the first bundle: once someone is signed in, the catalog's chunk (which every list page
// needs anyway) is fetched and the actions registered; each dialog loads on first use. The login
// page never fetches the catalog for this.
import type { EntityCatalog } from '../../engine/model/types.ts';
import { lazyDialog } from '../admin/lazy-dialog.ts';
import { en, zh, type MessageKey } from '../i18n/messages.ts';
import { registerExtension } from '../renderers/extensions.ts';
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
    if (!model.workflow) continue;
    registerExtension(model.key, {
      rowActions: [
        { key: 'workflow-submit', label: label('workflow.submit'), dialog: SubmitDialog },
        { key: 'workflow-recall', label: label('workflow.recall'), dialog: RecallDialog },
        { key: 'workflow-diagram', label: label('workflow.diagram'), dialog: DiagramDialog },
      ],
    });
  }
}

function whenSignedIn(run: () => void) {
  if (appStore.get(userInfoAtom)) return run();
  const stop = appStore.sub(userInfoAtom, () => {
    if (!appStore.get(userInfoAtom)) return;
    stop();
    run();
  });
}

whenSignedIn(() => void import('../renderers/catalog.ts').then(({ catalog }) => registerWorkflowActions(catalog())));
