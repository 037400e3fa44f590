// Every 10 s the token's age is checked; once it reaches the configured token time one refresh
// runs (never two at once).
import { website } from './website.ts';

export interface RefreshDeps {
  tokenObtainedAt: () => number;
  hasToken: () => boolean;
  refresh: () => Promise<void>;
  now?: () => number;
}

export function startTokenRefresh(deps: RefreshDeps): () => void {
  const now = deps.now ?? (() => Date.now());
  let running = false;
  const check = async () => {
    if (running || !deps.hasToken()) return;
    if (now() - deps.tokenObtainedAt() < website.tokenTime * 1000) return;
    running = true;
    try {
      await deps.refresh();
    } catch {
      // a failed refresh leaves the old token; a 401 later logs the user out
    } finally {
      running = false;
    }
  };
  const timer = setInterval(check, website.tokenCheckIntervalMs);
  return () => clearInterval(timer);
}
