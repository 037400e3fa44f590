// The whole catalog, both languages, as react-intl reads it (ICU MessageFormat): every message
// formats without an error, gives the text as written when its placeholders are filled with
// themselves, and names the same placeholders in Chinese and English. ICU gives a few characters a
// meaning of their own ({ } # and the apostrophe before them): a message that needs them as text
// quotes them and is listed below, so that a quote written by mistake (a name in 'single quotes'
// before a placeholder) fails here instead of on the page.
import { createIntl, createIntlCache } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { argumentsOf, compileMessage } from './compile.ts';
import { en } from './messages.en.ts';
import { zh, type MessageKey } from './messages.ts';

const CATALOGS = { zh, en } as const;

/** Messages that quote ICU's characters, with what they show (the workflow designer's `${…}` expressions). */
const QUOTED: Partial<Record<MessageKey, { zh: string; en: string }>> = {
  'designer.collectionRequired': { zh: '请输入集合,如 ${signers}', en: 'Enter a collection such as ${signers}' },
  'designer.multiHint': {
    zh: '每个实例的办理人可写成 ${元素变量},如 ${assignee}',
    en: "Each instance's assignee can be ${element variable}, e.g. ${assignee}",
  },
  'designer.conditionRequired': { zh: '请输入条件表达式,如 ${amount > 100000}', en: 'Enter a condition such as ${amount > 100000}' },
  'designer.notExpression': { zh: '条件须写成 ${…} 表达式', en: 'A condition is an expression written as ${…}' },
};

const ast = compileMessage;

function formatAll(lang: 'zh' | 'en', values: (key: MessageKey) => Record<string, string | number>) {
  const errors: string[] = [];
  const intl = createIntl({ locale: lang, messages: CATALOGS[lang], onError: (e) => errors.push(e.message) }, createIntlCache());
  const texts = Object.fromEntries(
    (Object.keys(zh) as MessageKey[]).map((key) => [key, intl.formatMessage({ id: key }, values(key), { ignoreTag: true })]),
  ) as Record<MessageKey, string>;
  return { texts, errors };
}

describe('the client catalog in ICU MessageFormat', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`${lang}: every message parses, and formats without an error with its values given`, () => {
      const { errors } = formatAll(lang, (key) =>
        Object.fromEntries([...argumentsOf(ast(CATALOGS[lang][key])).keys()].map((name) => [name, 3])),
      );
      expect(errors).toEqual([]);
    });

    it(`${lang}: a message with plain placeholders shows its text as written, the placeholders filled with themselves`, () => {
      const plain = (Object.keys(zh) as MessageKey[]).filter((key) => ![...argumentsOf(ast(CATALOGS[lang][key])).values()].some(Boolean));
      expect(plain.length).toBeGreaterThan(600);
      const { texts, errors } = formatAll(lang, (key) =>
        Object.fromEntries([...argumentsOf(ast(CATALOGS[lang][key])).keys()].map((name) => [name, `{${name}}`])),
      );
      expect(errors).toEqual([]);
      for (const key of plain) expect({ key, text: texts[key] }).toEqual({ key, text: QUOTED[key]?.[lang] ?? CATALOGS[lang][key] });
    });
  }

  it('the English message of a key names the same placeholders as the Chinese one', () => {
    const differ = (Object.keys(zh) as MessageKey[]).filter((key) => {
      const names = (lang: 'zh' | 'en') => [...argumentsOf(ast(CATALOGS[lang][key])).keys()].sort().join();
      return names('zh') !== names('en');
    });
    expect(differ).toEqual([]);
  });

  it('lists only messages that quote something', () => {
    for (const key of Object.keys(QUOTED) as MessageKey[]) expect(zh[key]).toContain("'{");
  });
});
