// The client's settings. Their values are requirements; change them here only.
export const website = {
  title: '筑算',
  keyPrefix: 'zhusuan',
  clientId: 'saber',
  clientSecret: 'saber_secret',
  tenantMode: true,
  tenantId: '000000',
  captchaMode: true,
  switchMode: false,
  /** Seconds after which a stored token is refreshed. */
  tokenTime: 3000,
  tokenHeader: 'Blade-Auth',
  firstPage: { label: 'home', path: '/wel/index' },
  pageSizes: [10, 30, 50, 100, 200],
  pageSize: 10,
  messagePageSizes: [10, 20, 30, 50],
  language: 'zh' as const,
  colour: '#409EFF',
  theme: 'default',
  logBadgeMax: 99,
  watermarkCheckMs: 500,
  chunkLoadTimeoutMs: 120_000,
  lockRedirectDelayMs: 100,
  menuShowTimeout: 200,
  requestTimeoutMs: 10_000,
  tokenCheckIntervalMs: 10_000,
  avatar: { maxKb: 500, types: ['image/jpeg', 'image/png'] },
  phoneLength: 11,
  dictDialogWidth: 880,
  /** HTTP statuses whose failures the caller handles (no toast). */
  statusWhiteList: [] as number[],
} as const;

export const THEMES = ['default', 'smart', 'black-gold', 'blue-white', 'white'] as const;
export type ThemeName = (typeof THEMES)[number];

/** Screen width class: 3 for ≥ 1200, 2 for ≥ 992, 1 for ≥ 768, else 0. */
export function breakpoint(width: number): 0 | 1 | 2 | 3 {
  if (width >= 1200) return 3;
  if (width >= 992) return 2;
  if (width >= 768) return 1;
  return 0;
}
