// react-intl's provider for the chosen language: the intl object that translate() uses too. The
// language is switched once its texts are loaded (useChooseLanguage, and main.tsx before the first
// render); if something sets it before, the page shows Chinese until they are in, then re-renders.
import { useAtomValue } from 'jotai';
import { type ReactNode, useEffect, useReducer } from 'react';
import { RawIntlProvider } from 'react-intl';
import { langAtom } from '../state/session.ts';
import { intlFor, isLoaded, loadMessages } from './intl.ts';

export function TextsProvider({ children }: { children: ReactNode }) {
  const lang = useAtomValue(langAtom);
  const [, textsArrived] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!isLoaded(lang)) void loadMessages(lang).then(textsArrived);
  }, [lang]);
  return <RawIntlProvider value={intlFor(lang)}>{children}</RawIntlProvider>;
}
