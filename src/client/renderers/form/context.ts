// What the form's own rjsf fields and templates read from rjsf's formContext.
import type { EntityModel, Lang } from '../../../engine/model/types.ts';
import type { FormLayout, FormMode } from './schema.ts';
import type { FormStore, Row } from './store.ts';

export interface FormContextValue {
  model: EntityModel;
  mode: FormMode;
  lang: Lang;
  store: FormStore;
  layout: FormLayout;
  readOnly: boolean;
  /** A header reference picked: copy its x-ref.copy fields into the header. */
  pickHeader: (field: string, record: Row | null) => void;
}
