// The built-in edit controls by x-ui.widget name, and the widget a field gets when its schema names
// none (by dictionary, reference, options, then by kind). The form and the detail grid both render
// fields through <FieldControl>, which takes the control from the renderers' registry (registry.ts).
import type { ComponentType } from 'react';
import { isWidgetName } from '../../../engine/dialect/ui-names.ts';
import type { FieldModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { useRegistry } from '../registry.ts';
import { DictControl, SelectControl, SwitchControl } from './ChoiceControls.tsx';
import { DateControl, DateRangeControl, MonthControl } from './DateControls.tsx';
import { DecimalControl, MoneyControl } from './DecimalControl.tsx';
import { RefControl } from './RefControl.tsx';
import { HiddenControl, PasswordControl, TextAreaControl, TextControl } from './TextControls.tsx';
import { TreeMultiSelectControl, TreeSelectControl } from './TreeControls.tsx';
import type { ControlProps, WidgetName } from './types.ts';
import { FileControl, ImageControl } from './UploadControls.tsx';

export const BUILT_IN_WIDGETS: Readonly<Record<WidgetName, ComponentType<ControlProps>>> = {
  text: TextControl,
  textarea: TextAreaControl,
  password: PasswordControl,
  number: DecimalControl,
  money: MoneyControl,
  date: DateControl,
  dateRange: DateRangeControl,
  month: MonthControl,
  select: SelectControl,
  dict: DictControl,
  ref: RefControl,
  treeSelect: TreeSelectControl,
  treeMultiSelect: TreeMultiSelectControl,
  upload: FileControl,
  image: ImageControl,
  switch: SwitchControl,
  hidden: HiddenControl,
};

function isTreeRef(field: FieldModel): boolean {
  return Boolean(field.ref && catalog().entities[field.ref.entity]?.tree);
}

/** The widget a field is edited with. */
export function widgetNameOf(field: FieldModel): WidgetName {
  const named = field.ui?.widget as WidgetName | undefined;
  // a tree picker needs a tree entity; a reference to a flat entity is picked from its options
  if (named === 'treeSelect' || named === 'treeMultiSelect')
    return isTreeRef(field) || (named === 'treeMultiSelect' && field.ui?.options) ? named : 'ref';
  if (isWidgetName(named)) return named;
  if (field.dict) return 'dict';
  if (field.ref) return isTreeRef(field) && field.ref.valueField !== 'id' && !field.ref.separator ? 'treeSelect' : 'ref';
  if (field.options) return 'select';
  switch (field.kind) {
    case 'decimal':
      return field.display?.type === 'money' ? 'money' : 'number';
    case 'integer':
      return 'number';
    case 'boolean':
      return 'switch';
    case 'date':
    case 'datetime':
      return 'date';
    case 'month':
      return 'month';
    default:
      return (field.maxLength ?? 0) > 500 ? 'textarea' : 'text';
  }
}

/** Renders the control of `field`'s widget. */
export function FieldControl(props: ControlProps) {
  const Control = (useRegistry().widgets ?? BUILT_IN_WIDGETS)[widgetNameOf(props.field)];
  return <Control {...props} />;
}
