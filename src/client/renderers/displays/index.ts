// Read-only displays of field values, shared by the list, the detail view and the form's read-only cells.
export { FieldDisplay, type FieldDisplayProps } from './FieldDisplay.tsx';
export { BUILT_IN_DISPLAYS } from './builtin.tsx';
export { displayTypeOf, NUMERIC_DISPLAYS, type DisplayComponent, type DisplayProps } from './display-type.ts';
export * from './text.ts';
