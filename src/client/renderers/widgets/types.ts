// The contract every edit widget keeps, whether the schema form (rjsf) or a detail-grid cell
// renders it: the field's model, its value, and a change callback with the new value.
import type { FieldModel, Lang } from '../../../engine/model/types.ts';

export type Row = Record<string, any>;

/** The x-ui widget names, one list with the meta-schema's (engine/dialect/ui-names.ts). */
export type { WidgetName } from '../../../engine/dialect/ui-names.ts';

export interface ControlProps {
  field: FieldModel;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur?: () => void;
  /** The DOM id of the input (rjsf's field id, so focusOnFirstError and labels find it). */
  id?: string;
  readOnly?: boolean;
  /** Shown with an error outline. */
  invalid?: boolean;
  /** A grid cell: borderless and small. */
  compact?: boolean;
  /**
   * The values of the record the field belongs to (a detail row sees its header's values too):
   * reference filters read their `$form.` tokens from here.
   */
  values?: Readonly<Row>;
  /** The fields of that record, to name a dependency that is still empty ("请先选择项目"). */
  fieldMap?: Readonly<Record<string, FieldModel>>;
  /** A reference picked: the whole referenced record, so that `x-ref.copy` fields can be copied. */
  onPick?: (record: Row | null) => void;
}

/** The placeholder of an input: the schema's Chinese one in zh, else 请输入X / please enter x. */
export type PlaceholderFn = (field: FieldModel, lang: Lang) => string;
