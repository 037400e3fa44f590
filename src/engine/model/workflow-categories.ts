// Workflow categories follow from the schemas: a document type with x-workflow has its category
// flow_<prefix>, named by the `flow` system dictionary's item of key <prefix>. A prefix the dictionary
// file does not list gets an item from its schema (the title, and its x-i18n title in English), so
// that a new document type with approval needs no dictionary entry for its category. An item the file
// lists wins: it may name the category otherwise than the document's title.
import type { DictionaryDef, DictionaryItem, EntityModel } from './types.ts';

/** The system dictionary naming workflow categories by prefix. */
export const FLOW_DICTIONARY = 'flow';

/**
 * The dictionaries with the `flow` dictionary completed by an item per x-workflow prefix it lacks
 * (in manifest order). A set without a `flow` system dictionary is left as it is.
 */
export function withWorkflowCategories(dictionaries: DictionaryDef[], entities: Record<string, EntityModel>): DictionaryDef[] {
  return dictionaries.map((dict) => (dict.code === FLOW_DICTIONARY && dict.source === 'system' ? withCategoryItems(dict, entities) : dict));
}

function withCategoryItems(dict: DictionaryDef, entities: Record<string, EntityModel>): DictionaryDef {
  const keys = new Set(dict.items.map((i) => i.key));
  const derived: DictionaryItem[] = [];
  for (const model of Object.values(entities)) {
    const prefix = model.workflow?.prefix;
    if (!prefix || keys.has(prefix)) continue;
    keys.add(prefix);
    derived.push({ key: prefix, value: model.label.zh, en: model.label.en });
  }
  return derived.length ? { ...dict, items: [...dict.items, ...derived] } : dict;
}
