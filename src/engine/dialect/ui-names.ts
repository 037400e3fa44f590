// The names a schema may give a field's edit widget (x-ui.widget) and its display (x-display.type):
// one list each, which the client's registry is typed from and the meta-schemas' enums must equal
// (ui-names.test.ts compares them with schemas/meta/x-ui.schema.json and x-display.schema.json).

export const WIDGET_NAMES = [
  'text',
  'textarea',
  'number',
  'money',
  'date',
  'dateRange',
  'month',
  'select',
  'dict',
  'ref',
  'treeSelect',
  'treeMultiSelect',
  'upload',
  'image',
  'switch',
  'password',
  'hidden',
] as const;

export type WidgetName = (typeof WIDGET_NAMES)[number];

export const DISPLAY_TYPES = [
  'text',
  'money',
  'quantity',
  'percent',
  'date',
  'datetime',
  'dict',
  'ref',
  'boolean',
  'tag',
  'capital',
  'image',
  'file',
  'code',
  'message',
] as const;

/** The displays a field gets from its kind or binding, which no schema names: numbers, months, options. */
export const IMPLIED_DISPLAYS = ['number', 'month', 'options'] as const;

export type DisplayName = (typeof DISPLAY_TYPES)[number] | (typeof IMPLIED_DISPLAYS)[number];

export function isWidgetName(name: unknown): name is WidgetName {
  return (WIDGET_NAMES as readonly unknown[]).includes(name);
}
