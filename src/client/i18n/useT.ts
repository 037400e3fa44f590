import { useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { langAtom } from '../state/session.ts';
import { catalogs, type MessageKey } from './messages.ts';

/** A text with its {placeholders} filled (an unknown one is left as it is). */
export function fillPlaceholders(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? `{${k}}`));
}

/** Translates a shell message in the current language, filling {placeholders}. */
export function translate(lang: 'zh' | 'en', key: MessageKey, values: Record<string, string | number> = {}): string {
  return fillPlaceholders(catalogs[lang][key], values);
}

/** The hook of a component family's own catalog (zh and en): its texts in the current language. */
export function catalogHook<K extends string>(catalog: Record<'zh' | 'en', Record<K, string>>) {
  return function useCatalog() {
    const lang = useAtomValue(langAtom);
    return useCallback((key: K, values?: Record<string, string | number>) => fillPlaceholders(catalog[lang][key], values), [lang]);
  };
}

export function useT() {
  const lang = useAtomValue(langAtom);
  return useCallback((key: MessageKey, values?: Record<string, string | number>) => translate(lang, key, values), [lang]);
}

/** A menu's name in the current language. */
export function menuName(menu: { name: string; nameEn?: string }, lang: 'zh' | 'en'): string {
  return lang === 'en' && menu.nameEn ? menu.nameEn : menu.name;
}
