// The catalogs compiled into react-intl's message syntax tree, at build time (vite.config.ts): the
// browser formats them without parsing, so the bundle leaves out formatjs's ICU parser.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/** A message parsed as react-intl would parse it in the browser (formatText: no rich-text tags). */
export function compileMessage(message: string): MessageFormatElement[] {
  return parse(message, { ignoreTag: true });
}

export function compileCatalog(messages: Readonly<Record<string, string>>): Record<string, MessageFormatElement[]> {
  return Object.fromEntries(Object.entries(messages).map(([key, message]) => [key, compileMessage(message)]));
}

/** The values a compiled message names, each with whether it is formatted (a number, a plural, a choice) or shown as given. */
export function argumentsOf(elements: MessageFormatElement[], names = new Map<string, boolean>()): Map<string, boolean> {
  for (const el of elements) {
    if (el.type === TYPE.argument) names.set(el.value, names.get(el.value) ?? false);
    if (el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) names.set(el.value, true);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      names.set(el.value, true);
      for (const option of Object.values(el.options)) argumentsOf(option.value, names);
    }
  }
  return names;
}
