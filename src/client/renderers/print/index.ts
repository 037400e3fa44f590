// Printing a contract or settlement: the button and which documents print. The printed form
// (PrintDocument.tsx) is loaded by the document screen when a printable document opens.
export { PrintButton } from './PrintButton.tsx';
export { isPrintable, type PeriodPair } from './printable.ts';
