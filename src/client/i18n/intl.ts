// The client's texts through react-intl: one intl object per language, made from that language's
// catalog (messages.ts, messages.en.ts) and shared by the components (TextsProvider, useT) and the
// code outside React (translate). Chinese, the default, comes with the app; English is a chunk of its
// own, fetched the first time it is chosen, so that a visitor downloads the texts of one language.
import { createIntl, createIntlCache, type IntlConfig, type IntlShape } from 'react-intl';
import type { Lang } from '../state/session.ts';
import type { MessageKey } from './messages.ts';
import { zh } from './messages.ts';

export type Messages = Readonly<Record<MessageKey, string>>;
export type TextValues = Record<string, string | number>;

/** The locale each language formats its numbers, dates and plurals in. */
export const LOCALES: Record<Lang, string> = { zh: 'zh-CN', en: 'en' };

const loaded: Partial<Record<Lang, Messages>> = { zh };
const intls = new Map<Lang, IntlShape>();
const cache = createIntlCache();
let english: Promise<Messages> | undefined;

export function isLoaded(lang: Lang): boolean {
  return loaded[lang] !== undefined;
}

/** The language's texts: Chinese at once, English from its chunk (fetched once; again after a failure). */
export function loadMessages(lang: Lang): Promise<Messages> {
  const ready = loaded[lang];
  if (ready) return Promise.resolve(ready);
  english ??= import('./messages.en.ts').then(
    ({ en }) => provideMessages('en', en),
    (error: unknown) => {
      english = undefined;
      throw error;
    },
  );
  return english;
}

/** Makes a language's texts available now: the test and story providers, which import both catalogs, and loadMessages. */
export function provideMessages(lang: Lang, messages: Messages): Messages {
  if (loaded[lang] !== messages) intls.delete(lang);
  loaded[lang] = messages;
  return messages;
}

const reported = new Set<string>();

/**
 * A text that cannot be formatted (a value not given, a broken message) shows react-intl's fallback
 * (the message as written, or its key) rather than failing the page; the console says why, once per
 * message and kind of error, not on every render.
 */
const reportOnce: IntlConfig['onError'] = (error) => {
  const id = 'descriptor' in error ? error.descriptor?.id : undefined;
  const key = `${error.code} ${id ?? error.message}`;
  if (reported.has(key)) return;
  reported.add(key);
  console.error(error);
};

/** The intl object of a language whose texts are loaded; Chinese's until English's are. */
export function intlFor(lang: Lang): IntlShape {
  const messages = loaded[lang];
  if (!messages) return intlFor('zh');
  let intl = intls.get(lang);
  if (!intl) {
    intl = createIntl({ locale: LOCALES[lang], defaultLocale: LOCALES.zh, messages, onError: reportOnce }, cache);
    intls.set(lang, intl);
  }
  return intl;
}

/** A text of the catalog with its {placeholders} filled. `<` is a character, not the start of a rich-text tag. */
export function formatText(intl: IntlShape, key: MessageKey, values?: TextValues): string {
  return intl.formatMessage({ id: key }, values, { ignoreTag: true });
}
