// The build compiles the catalogs (compile.ts, vite.config.ts) and the browser formats the compiled
// messages without a parser: each one must read exactly as its string does.
import { createIntl, createIntlCache } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { argumentsOf, compileCatalog } from './compile.ts';
import { en } from './messages.en.ts';
import { zh, type MessageKey } from './messages.ts';

describe('the compiled catalogs', () => {
  for (const [lang, messages] of [
    ['zh', zh],
    ['en', en],
  ] as const) {
    it(`${lang}: every compiled message formats as its string does`, () => {
      const cache = createIntlCache();
      const fromStrings = createIntl({ locale: lang, messages }, cache);
      const ast = compileCatalog(messages);
      const compiled = createIntl({ locale: lang, messages: ast }, cache);
      for (const key of Object.keys(zh) as MessageKey[])
        for (const count of [1, 1234]) {
          // a count where a value is formatted (1: the singular of a plural; 1234: grouped), its own name where shown as given
          const values = Object.fromEntries([...argumentsOf(ast[key])].map(([name, formatted]) => [name, formatted ? count : name]));
          const format = (intl: typeof compiled) => intl.formatMessage({ id: key }, values, { ignoreTag: true });
          expect({ key, text: format(compiled) }).toEqual({ key, text: format(fromStrings) });
        }
    });
  }
});
