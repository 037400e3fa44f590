import { useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { langAtom } from '../state/session.ts';
import { en } from './messages.en.ts';
import { type MessageKey, zh } from './messages.ts';

const catalogs = { zh, en };

/** A text with its {placeholders} filled (an unknown one is left as it is). */
export function fillPlaceholders(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? `{${k}}`));
}

/** Translates a shell message in the current language, filling {placeholders}. */
export function translate(lang: 'zh' | 'en', key: MessageKey, values: Record<string, string | number> = {}): string {
  return fillPlaceholders(catalogs[lang][key], values);
}

export function useT() {
  const lang = useAtomValue(langAtom);
  return useCallback((key: MessageKey, values?: Record<string, string | number>) => translate(lang, key, values), [lang]);
}

/** A menu's name in the current language. */
export function menuName(menu: { name: string; nameEn?: string }, lang: 'zh' | 'en'): string {
  return lang === 'en' && menu.nameEn ? menu.nameEn : menu.name;
}
