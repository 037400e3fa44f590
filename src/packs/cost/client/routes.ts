// The cost rules' pages outside the document types: the project cost statistics. Loaded when first
// opened (the router's static routes take them in, app/Router.tsx).
export const COST_PAGES = [
  { path: '/cost/statistics', title: 'title.statistics', load: () => import('./stats/ProjectStatistics.tsx') },
] as const;
