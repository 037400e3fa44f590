// What the generic screens of an entity can be given beyond its schema: the administration
// actions that are not documents (role grant, reset password, tenant package setting, ...).
// The admin, workflow and resource folders declare them; the app puts them in the renderers'
// registry (registry.ts), so the renderers never import an admin screen by name.
import type { ComponentType } from 'react';
import type { EntityModel } from '../../engine/model/types.ts';
import type { MessageKey } from '../i18n/messages.ts';

export type Row = Record<string, any>;

export interface ActionDialogProps {
  model: EntityModel;
  /** The rows the action applies to: the clicked row, or the selected rows of a toolbar action. */
  rows: Row[];
  /** Closes the dialog; `changed` refreshes the list. */
  onClose: (changed: boolean) => void;
}

export interface EntityAction {
  key: string;
  /** The button's text: a key of the client's catalog, so that only the shown language's texts are loaded. */
  label: MessageKey;
  /** Button permission code (e.g. "role_grant"); the button is hidden without it. */
  permission?: string;
  /** Toolbar actions: how many selected rows they need ("请选择至少一条数据" otherwise). */
  selection?: 'one' | 'many';
  danger?: boolean;
  /** Row actions: shown only on the rows this says yes to (an approval action on the statuses it applies to). */
  appliesTo?: (row: Row) => boolean;
  dialog: ComponentType<ActionDialogProps>;
}

export interface EntityExtension {
  /** Buttons on each row, after view / edit / delete. */
  rowActions?: EntityAction[];
  /** Buttons above the table, beside add / delete / export. */
  toolbarActions?: EntityAction[];
  /** Standard actions shown but disabled (the tenant package view button). */
  disabledActions?: ('add' | 'edit' | 'view' | 'delete' | 'export')[];
}
