// The browser client: the session's state around the router. The signed-in pages add their own
// providers (server data, antd: app/ShellProviders.tsx), which the login page does not load.
import { Provider as JotaiProvider, useAtomValue } from 'jotai';
import { Component, StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter, beforeFirstRender } from './app/Router.tsx';
import { LOCALES, loadMessages } from './i18n/intl.ts';
import { TextsProvider } from './i18n/TextsProvider.tsx';
import { appStore, langAtom, logError } from './state/session.ts';
import './styles.css';

window.addEventListener('error', (e) =>
  logError({ type: 'error', message: e.message, stack: (e.error as Error | undefined)?.stack ?? '', info: `${e.filename}:${e.lineno}` }),
);
window.addEventListener('unhandledrejection', (e) => {
  const reason = e.reason as Error | undefined;
  if (reason?.name === 'ApiError') return; // already shown to the user as a toast
  logError({ type: 'promise', message: reason?.message ?? String(e.reason), stack: reason?.stack ?? '', info: 'unhandled rejection' });
});

/** Uncaught render errors are kept in the local error log. */
class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: { componentStack?: string | null }) {
    logError({ type: 'render', message: error.message, stack: error.stack ?? '', info: info.componentStack ?? '' });
  }
  override render() {
    if (this.state.failed) {
      window.location.assign('/500');
      return null;
    }
    return this.props.children;
  }
}

/** The page's language attribute follows the chosen language (screen readers, fonts, hyphenation). */
function DocumentLanguage({ children }: { children: ReactNode }) {
  const lang = useAtomValue(langAtom);
  document.documentElement.lang = LOCALES[lang];
  return children;
}

/** The chosen language's texts. If English's cannot be fetched, the page shows Chinese and TextsProvider tries again. */
function loadChosenTexts(): Promise<unknown> {
  return loadMessages(appStore.get(langAtom)).catch(() => undefined);
}

// a signed-in page asks at once for what it needs (the schema set, the menus and buttons, its code
// and its first data), side by side, and renders once its shell is in (app/Router.tsx), and its texts
// are in. Not a top-level await: the chunks it loads import from this module, which must have finished first.
void Promise.all([beforeFirstRender(window.location.pathname, window.location.search, window.location.hash), loadChosenTexts()]).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <JotaiProvider store={appStore}>
        <DocumentLanguage>
          <ErrorBoundary>
            <TextsProvider>
              <AppRouter />
            </TextsProvider>
          </ErrorBoundary>
        </DocumentLanguage>
      </JotaiProvider>
    </StrictMode>,
  ),
);
