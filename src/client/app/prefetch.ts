// A page's first requests, made on a page load before the page renders (app/Router.tsx
// startPageLoad, as soon as the page's code and the schema catalog are in): each GET leaves at once
// and its answer is kept for the page, whose own request of the same address and parameters takes it
// (once, within EARLY_FOR_MS) instead of asking again. The page's data thus arrives while the shell
// renders rather than after it, and its queries and their cache behave as if they had asked.
import type { RendererHttp } from '../renderers/http-context.tsx';

/** Where a page opens: its route's parameters, the address's query (`?projectId=…`) and fragment (`#edit=…`). */
export interface PageAt {
  params: Record<string, string>;
  search: string;
  hash: string;
}

/** A page's first requests, made through `http` (whose GETs are kept for the page). */
export type Prefetch = (at: PageAt & { http: RendererHttp }) => void;

/** An early answer no request took by then is dropped: it is not served to a later visit. */
export const EARLY_FOR_MS = 30_000;

const early = new Map<string, { answer: Promise<unknown>; at: number }>();

const keyOf = (url: string, params: unknown) => JSON.stringify([url, params ?? {}]);

function dropExpired(now: number) {
  for (const [key, { at }] of early) if (now - at > EARLY_FOR_MS) early.delete(key);
}

/** `http` whose GETs are made now and kept for the page's own (prefetch's door). */
export function earlyHttp(http: RendererHttp): RendererHttp {
  return {
    ...http,
    get: (url, params, options) => keepEarly(url, params, http.get(url, params, options)),
  };
}

/** Keeps `answer`, a request of `url` with `params` made early, for the first request of the same to take. */
export function keepEarly<T>(url: string, params: unknown, answer: Promise<T>): Promise<T> {
  answer.catch(() => undefined); // the request that takes it gets the failure and reports it
  dropExpired(Date.now());
  early.set(keyOf(url, params), { answer, at: Date.now() });
  return answer;
}

/**
 * Forgets every early answer: after a write, an answer asked for before it may no longer be true, and
 * a page that had not taken it yet must ask again.
 */
export function forgetEarly() {
  early.clear();
}

/** The early answer to a GET of `url` with `params`, taken once; undefined when none is waiting. */
export function takeEarly<T>(url: string, params: unknown): Promise<T> | undefined {
  dropExpired(Date.now());
  const key = keyOf(url, params);
  const found = early.get(key);
  early.delete(key);
  return found?.answer as Promise<T> | undefined;
}
