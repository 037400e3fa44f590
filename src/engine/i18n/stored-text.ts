// Texts the system writes for people to read later (a warning, an approval message) are stored as
// a message key and its parameters, not as words, and rendered in the language of whoever reads
// them: the list, the detail, the bell, an export. A field holding such texts is shown as
// `x-display: {type: "message"}`; its column keeps the reference as JSON:
//   {"key": "warning.demandOverTotal", "params": {"goods": "钢筋", "actual": 120, …}}
// A parameter may be a Label ({zh, en}: a name that differs by language), another reference, or a
// list of them (one a line). A stored list is its texts joined as the language joins clauses (a
// warning with several reasons). A stored {zh, en} pair is a text written in both languages before
// keys were stored (start-up migration). Anything else is plain text, shown as it is (a message a
// person typed).
import type { FieldModel, Label, Lang } from '../model/types.ts';
import { installedPacks, type EnginePack } from '../packs.ts';
import { workflowMessages } from '../workflow/messages.ts';
import { fill, isLabel, messages } from './messages.ts';

export interface TextRef {
  key: string;
  params?: Record<string, unknown>;
}

export type StoredText = TextRef | Label | readonly StoredText[];

type Catalogs = Readonly<Record<string, Readonly<Record<string, Label>>>>;

/** The engine's own catalogs; a pack adds its own (EnginePack.storedTexts). */
const ENGINE_CATALOGS: Catalogs = { msg: messages, workflow: workflowMessages };

let catalogsOf: { packs: readonly EnginePack[]; catalogs: Catalogs } | undefined;

/** The catalogs a stored key may name, by its prefix (`warning.` …): the engine's and the installed packs'. */
export function storedTextCatalogs(): Catalogs {
  const packs = installedPacks();
  if (catalogsOf?.packs !== packs)
    catalogsOf = { packs, catalogs: Object.assign({}, ...packs.map((p) => p.storedTexts ?? {}), ENGINE_CATALOGS) };
  return catalogsOf.catalogs;
}

const SEPARATOR: Record<Lang, string> = { zh: ';', en: '; ' };

const isRef = (v: unknown): v is TextRef =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  typeof (v as TextRef).key === 'string' &&
  templateOf((v as TextRef).key) !== undefined;

function templateOf(key: string): Label | undefined {
  const dot = key.indexOf('.');
  return dot > 0 ? storedTextCatalogs()[key.slice(0, dot)]?.[key.slice(dot + 1)] : undefined;
}

function isStored(v: unknown): v is StoredText {
  if (Array.isArray(v)) return v.every(isStored);
  return isRef(v) || (isLabel(v) && typeof v.zh === 'string' && typeof v.en === 'string');
}

/** A reference to a catalog message; throws on a key no catalog has (a typo is a bug, not a text). */
export function textRef(key: string, params: Record<string, unknown> = {}): TextRef {
  if (!templateOf(key)) throw new Error(`unknown message key ${key}`);
  return { key, params };
}

/** The column value of a stored text. */
export function storeText(text: StoredText): string {
  return JSON.stringify(text);
}

/** The stored text a column value holds, or undefined for plain text. */
export function parseStoredText(value: unknown): StoredText | undefined {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isStored(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A stored text in one language. */
export function renderStored(text: StoredText, lang: Lang): string {
  if (Array.isArray(text)) return text.map((t) => renderStored(t, lang)).join(SEPARATOR[lang]);
  if (isRef(text)) {
    const params: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(text.params ?? {}))
      params[name] =
        Array.isArray(value) && isStored(value)
          ? value.map((v) => renderStored(v, lang)).join('\n')
          : isStored(value)
            ? renderStored(value, lang)
            : value;
    return fill(templateOf(text.key)![lang], params);
  }
  return (text as Label)[lang];
}

/** A column value as the reader sees it: a stored text rendered in their language, anything else as it is. */
export function renderText(value: unknown, lang: Lang): unknown {
  const stored = parseStoredText(value);
  return stored === undefined ? value : renderStored(stored, lang);
}

/** Does plain text read back from a form say what the stored value says, in either language? */
export function sameText(plain: unknown, stored: unknown): boolean {
  const text = parseStoredText(stored);
  return text !== undefined && typeof plain === 'string' && (['zh', 'en'] as const).some((lang) => renderStored(text, lang) === plain);
}

/** The fields whose values may be stored texts (x-display message). */
export const storedTextFields = (fields: readonly FieldModel[]): FieldModel[] => fields.filter((f) => f.display?.type === 'message');

/** A record as the reader sees it: each stored text of its fields rendered in their language. */
export function localizeRecord<T extends Record<string, unknown>>(fields: readonly FieldModel[], record: T, lang: Lang): T {
  for (const f of storedTextFields(fields))
    if (f.name in record) (record as Record<string, unknown>)[f.name] = renderText(record[f.name], lang);
  return record;
}
