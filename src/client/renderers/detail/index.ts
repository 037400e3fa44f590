// The read-only view of a record.
export { EntityDetail, type EntityDetailProps } from './EntityDetail.tsx';
export { DetailRowsTable } from './DetailRowsTable.tsx';
