// What a form can be given beyond its schema (the renderers' registry, registry.ts): the cost rules'
// panels, which the generic form never names. An extension is a hook the form calls on every
// render, with the record being edited; it answers what to show and what to ask before a submission.
import type { ReactNode } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import type { FormStore, Row } from './store.ts';

export interface FormExtensionProps {
  model: EntityModel;
  /** The stored record's id (absent while creating). */
  id: string | undefined;
  store: FormStore;
  /** The header's values as the form holds them now, and how to change them (fills the form). */
  header: Row;
  setHeader: (next: Row) => void;
  /** Whether the form edits (false: a read-only view). */
  editable: boolean;
}

export interface FormExtensionParts {
  /** Shown above the form, in the registry's order. */
  top?: ReactNode;
  /** Shown beside the save button. */
  beforeSave?: ReactNode;
  /** Asked before a submission for approval: false stops it (the extension has told the user why). */
  beforeSubmit?: () => Promise<boolean>;
}

/** Called like a hook (the registry's list of them does not change while a form is open). */
export type FormExtension = (props: FormExtensionProps) => FormExtensionParts;

/** A panel of a stored document's detail view. */
export type DetailPanel = (props: { model: EntityModel; id: string | undefined }) => ReactNode;

/** What a check answers in a list's submit dialog; while one is pending, the submission waits. */
export interface SubmitCheckAnswer {
  pending: boolean;
  /** Shown in the dialog in place of the plain question: what the check found. */
  content?: ReactNode;
  /** The submission may not go ahead. */
  refused?: boolean;
  /** What it found is serious (the confirming button turns red). */
  danger?: boolean;
}

/** Called like a hook by a list's submit dialog, with the document and whether the dialog submits. */
export type SubmitCheck = (props: { model: EntityModel; id: string; active: boolean }) => SubmitCheckAnswer;
