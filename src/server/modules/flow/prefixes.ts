// The workflow prefixes, declared by the schemas (x-workflow.prefix): each names a
// document type's approval pages (/work/process/<prefix>/form|handle|detail) and its flow category
// flow_<prefix>, named in the `flow` dictionary (key <prefix>, zh/en). Each has a default process in
// schemas/workflows/<prefix>.bpmn, deployed for every tenant that has none of that key.
import type { EntityCatalog } from '../../../engine/model/types.ts';

/** The workflow prefixes of a schema set: each document type's x-workflow.prefix, once, in manifest order. */
export function workflowPrefixes(catalog: EntityCatalog): string[] {
  return [...new Set(Object.values(catalog.entities).flatMap((m) => (m.workflow ? [m.workflow.prefix] : [])))];
}

export const CATEGORY_PREFIX = 'flow_';

/** flow_<prefix> → <prefix> (undefined for another category). */
export function prefixOfCategory(category: string | null | undefined): string | undefined {
  return category && category.startsWith(CATEGORY_PREFIX) ? category.slice(CATEGORY_PREFIX.length) : undefined;
}

export function categoryOf(prefix: string): string {
  return CATEGORY_PREFIX + prefix;
}
