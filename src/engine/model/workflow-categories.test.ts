// A document type with approval names its workflow category by its schema: the compiled `flow`
// dictionary gains an item for an x-workflow prefix its file does not list, and keeps the items the
// file lists as they are written.
import { describe, expect, it } from 'vitest';
import { readSchemaSource } from '../../server/schema-source.ts';
import { compile } from './compile.ts';
import type { SchemaSource } from './source.ts';

const real = readSchemaSource();

/** A document with approval under `prefix`, titled 安全检查记录. */
const inspection = (key: string, prefix: string) => ({
  $schema: 'https://zhusuan.dev/schemas/meta/dialect.schema.json',
  title: '安全检查记录',
  'x-i18n': { title: 'Safety inspection' },
  type: 'object',
  'x-entity': { key, table: `zs_${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`, api: `/api/safety/${key}` },
  'x-workflow': { prefix, statusField: 'approvalStatus' },
  properties: {
    subject: { type: 'string', maxLength: 100, title: '检查事项', 'x-i18n': { title: 'Subject' } },
    approvalStatus: { $ref: '../common/workflow.schema.json#/$defs/approvalStatus' },
  },
});

const flowDictionary = {
  source: 'system',
  dictionaries: [
    {
      code: 'flow',
      name: '流程类型',
      en: 'Flow type',
      items: [{ key: 'construction', value: '收入合同', en: 'Income contract' }],
    },
  ],
};

/** A schema set of the common files, a flow dictionary and one document per prefix. */
function setOf(prefixes: Record<string, string>): SchemaSource {
  const files: SchemaSource['files'] = Object.fromEntries(Object.entries(real.files).filter(([f]) => f.startsWith('schemas/common/')));
  files['schemas/dictionaries/flow.json'] = flowDictionary;
  const entities: Record<string, string> = {};
  for (const [key, prefix] of Object.entries(prefixes)) {
    entities[key] = `schemas/safety/${key}.schema.json`;
    files[entities[key]] = inspection(key, prefix);
  }
  return { manifest: { dictionaries: ['schemas/dictionaries/flow.json'], entities }, files, meta: real.meta };
}

const flowItems = (source: SchemaSource) =>
  compile(source, { validators: 'lazy' }).catalog.dictionaries.find((d) => d.code === 'flow')?.items;

describe('workflow categories', () => {
  it('gives a new x-workflow prefix its category item, named by the schema title', () => {
    expect(flowItems(setOf({ safetyInspection: 'safetyInspection' }))).toEqual([
      { key: 'construction', value: '收入合同', en: 'Income contract' },
      { key: 'safetyInspection', value: '安全检查记录', en: 'Safety inspection' },
    ]);
  });

  it('keeps the item the dictionary file lists for a prefix, and derives a prefix once', () => {
    const items = flowItems(setOf({ construction: 'construction', inspectionA: 'safety', inspectionB: 'safety' }));
    expect(items).toEqual([
      { key: 'construction', value: '收入合同', en: 'Income contract' },
      { key: 'safety', value: '安全检查记录', en: 'Safety inspection' },
    ]);
  });

  it('names every prefix of the real schema set', () => {
    const { catalog } = compile(real, { validators: 'lazy' });
    const keys = new Set(catalog.dictionaries.find((d) => d.code === 'flow')?.items.map((i) => i.key));
    for (const model of Object.values(catalog.entities)) if (model.workflow) expect(keys, model.key).toContain(model.workflow.prefix);
  });
});
