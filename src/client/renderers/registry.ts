// The renderers' one registry: the edit widgets (x-ui.widget), the read-only displays (x-display
// type, or the one a field's kind implies), what an entity's list offers beyond its schema (the
// administration and approval actions), and the panels of forms and detail views (the cost rules'). Passed through context: the signed-in shell gives the app's
// (app/CatalogGate.tsx), a story or a test its own. Without a provider, or for a slot a provider
// leaves out, the built-in widgets and displays apply and no list has extra actions.
import { createContext, useContext, type ComponentType } from 'react';
import type { DisplayName, WidgetName } from '../../engine/dialect/ui-names.ts';
import type { DisplayComponent } from './displays/display-type.ts';
import type { EntityExtension } from './extensions.ts';
import type { EntityModel } from '../../engine/model/types.ts';
import type { DetailPanel, FormExtension, SubmitCheck } from './form/extension.ts';
import type { PeriodPair } from './print/printable.ts';
import type { ControlProps } from './widgets/types.ts';

export interface RendererRegistry {
  widgets?: Readonly<Record<WidgetName, ComponentType<ControlProps>>>;
  displays?: Readonly<Record<DisplayName, DisplayComponent>>;
  /** By entity key: the list's extra row and toolbar actions, and standard actions shown disabled. */
  lists?: Readonly<Record<string, EntityExtension>>;
  /** Every form's extensions, in order (form/extension.ts). */
  forms?: readonly FormExtension[];
  /** Every stored document's detail panels, in order. */
  details?: readonly DetailPanel[];
  /** Asked by a list's submit dialog before a document goes for approval, in order (form/extension.ts). */
  submitChecks?: readonly SubmitCheck[];
  /** The printed form's this-period / previous / cumulative lines of a document (none without it). */
  periodPairs?: (model: EntityModel) => readonly PeriodPair[];
}

export const RegistryContext = createContext<RendererRegistry>({});

export function useRegistry(): RendererRegistry {
  return useContext(RegistryContext);
}

/** The lists' extensions of several sources as one: an entity's actions in the sources' order. */
export function mergeLists(...sources: Readonly<Record<string, EntityExtension>>[]): Record<string, EntityExtension> {
  const merged: Record<string, EntityExtension> = {};
  for (const source of sources) {
    for (const [entity, extension] of Object.entries(source)) {
      const current = merged[entity] ?? {};
      merged[entity] = {
        rowActions: [...(current.rowActions ?? []), ...(extension.rowActions ?? [])],
        toolbarActions: [...(current.toolbarActions ?? []), ...(extension.toolbarActions ?? [])],
        disabledActions: [...(current.disabledActions ?? []), ...(extension.disabledActions ?? [])],
      };
    }
  }
  return merged;
}
