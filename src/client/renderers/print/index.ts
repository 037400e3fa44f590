// Printing a contract or settlement: the button, the printed form and which documents print.
export { PrintButton } from './PrintButton.tsx';
export { PrintDocument } from './PrintDocument.tsx';
export { cumulativePairs, isPrintable, type PeriodPair } from './printable.ts';
