// Category axes name every category: left alone, ECharts skips labels that do not fit (every other
// contract type in English). Long names turn and are cut with an ellipsis; the tooltip and the
// table beside each chart give them whole.
export interface CategoryLabels {
  interval: 0;
  rotate: number;
  width: number;
  overflow: 'truncate';
}

/** The labels of a horizontal category axis over `names`. */
export function categoryLabels(names: readonly string[]): CategoryLabels {
  const total = names.reduce((sum, n) => sum + n.length, 0);
  // about 60 characters fit side by side on a half-width chart; beyond that the labels turn
  return { interval: 0, rotate: total > 60 ? 30 : 0, width: 140, overflow: 'truncate' };
}
