import { useSetAtom } from 'jotai';
import { useCallback, useRef } from 'react';
import { useIntl } from 'react-intl';
import { langAtom, type Lang } from '../state/session.ts';
import { formatText, intlFor, loadMessages, type TextValues } from './intl.ts';
import type { MessageKey } from './messages.ts';

/** The client's texts in the current language: react-intl's, from the nearest TextsProvider. */
export function useT() {
  const intl = useIntl();
  return useCallback((key: MessageKey, values?: TextValues) => formatText(intl, key, values), [intl]);
}

/** A text in a language, for code outside React's render (the HTTP client's errors, column definitions, checks). */
export function translate(lang: Lang, key: MessageKey, values?: TextValues): string {
  return formatText(intlFor(lang), key, values);
}

/** Switches the language once its texts are loaded: the page goes on in the former language meanwhile, never blank. */
export function useChooseLanguage() {
  const setLang = useSetAtom(langAtom);
  // the last choice wins, even when an earlier one's texts arrive after it
  const latest = useRef<Lang>(undefined);
  return useCallback(
    async (lang: Lang) => {
      latest.current = lang;
      await loadMessages(lang);
      if (latest.current === lang) setLang(lang);
    },
    [setLang],
  );
}

/** A menu's name in the current language. */
export function menuName(menu: { name: string; nameEn?: string }, lang: 'zh' | 'en'): string {
  return lang === 'en' && menu.nameEn ? menu.nameEn : menu.name;
}
