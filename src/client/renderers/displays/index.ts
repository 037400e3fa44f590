// Read-only displays of field values, shared by the list, the detail view and the form's read-only cells.
export { FieldDisplay, type FieldDisplayProps } from './FieldDisplay.tsx';
export {
  displayComponent,
  displayTypeOf,
  displayTypes,
  NUMERIC_DISPLAYS,
  registerDisplay,
  type DisplayComponent,
  type DisplayProps,
} from './registry.tsx';
export * from './text.ts';
