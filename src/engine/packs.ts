// A pack is a family of rules the generic engine does not name (the cost rules: src/packs/cost). Its
// engine face tells the engine what it adds: the dialect keywords whose meaning it gives, its checks
// of a schema set, and the catalogs of the texts it stores. Each process installs its packs once,
// where it is put together (the server's module list, the browser's catalog gate, the test set-up),
// before it compiles a schema set; like a date library's plugins, they are the process's, not a
// compile's, because stored texts are read everywhere without a schema set at hand.
import type { DictionaryDef, EntityModel, JsonSchema, Label } from './model/types.ts';

export type Report = (at: string, message: string) => void;

export interface EnginePack {
  name: string;
  /**
   * The dialect keywords it compiles (on a document's root), each into `model.extensions[keyword]`.
   * The keyword's meta-schema is the dialect's (schemas/meta), which validates it before this runs.
   */
  keywords?: Readonly<Record<string, (entityKey: string, value: JsonSchema) => unknown>>;
  /** Its checks of one entity of a compiled set, beside the engine's (when compile checks the set). */
  lint?: (
    model: EntityModel,
    entities: Readonly<Record<string, EntityModel>>,
    report: Report,
    dictionaries: readonly DictionaryDef[],
  ) => void;
  /** The catalogs of the texts it stores (i18n/stored-text.ts), by the keys' prefix. */
  storedTexts?: Readonly<Record<string, Readonly<Record<string, Label>>>>;
}

/**
 * The dialect's keywords that a pack gives meaning to: a document using one needs an installed pack
 * that compiles it, or the set does not compile (a process that forgot its packs fails loudly).
 */
export const PACK_KEYWORDS: readonly string[] = ['x-cumulative'];

let installed: readonly EnginePack[] = [];

/** Makes `packs` the process's packs (a second call with the same list changes nothing). */
export function installPacks(packs: readonly EnginePack[]): void {
  const names = packs.map((p) => p.name);
  if (new Set(names).size !== names.length) throw new Error(`a pack is listed twice: ${names.join(', ')}`);
  installed = packs;
}

export function installedPacks(): readonly EnginePack[] {
  return installed;
}

/**
 * The pack keywords of a document, compiled by the installed packs; throws, with the keyword's
 * pointer, on one no installed pack compiles.
 */
export function compilePackKeywords(entityKey: string, doc: JsonSchema): Record<string, unknown> {
  const extensions: Record<string, unknown> = {};
  for (const keyword of PACK_KEYWORDS.filter((k) => doc[k] !== undefined)) {
    const compileKeyword = installed.find((p) => p.keywords?.[keyword])?.keywords?.[keyword];
    if (!compileKeyword) throw Object.assign(new Error(`no installed pack compiles ${keyword}`), { pointer: `/${keyword}` });
    extensions[keyword] = compileKeyword(entityKey, doc[keyword]);
  }
  return extensions;
}
