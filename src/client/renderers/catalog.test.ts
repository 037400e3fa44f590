// The catalog compiles the schema set it is given: the one the server answers (a document type
// installed while the server runs included), the same version only once. Tests start on the
// bundled files.
import { describe, expect, it, vi } from 'vitest';
import type { JsonSchema } from '../../engine/model/types.ts';
import { bundledSchemas } from './bundled-schemas.ts';
import { catalog, catalogReady, entityForPath, loadCatalog, whenCatalogReady, type SchemaSet } from './catalog.ts';

/** The bundled set with one more document type, as the server answers it after an install. */
function withInstalledType(version: string): SchemaSet {
  const base = bundledSchemas();
  const file = 'schemas/custom/pour-record.schema.json';
  const schema: JsonSchema = {
    $schema: 'https://zhusuan.dev/schemas/meta/dialect.schema.json',
    title: '浇筑记录',
    'x-i18n': { title: 'Pour record' },
    type: 'object',
    'x-entity': {
      key: 'pourRecord',
      table: 'biz_pour_record',
      api: '/api/blade-custom/pour-record',
      scope: 'tenant',
      titleField: 'pourNo',
      menu: { parent: 'develop', code: 'pour_record', path: '/custom/pour-record', sort: 1 },
    },
    'x-list': { columns: ['pourNo'] },
    required: ['pourNo'],
    properties: { pourNo: { type: 'string', maxLength: 40, title: '浇筑编号', 'x-i18n': { title: 'Pour no.' } } },
  };
  return {
    ...base,
    version,
    files: { ...base.files, [file]: schema },
    manifest: { ...base.manifest, entities: { ...base.manifest.entities, pourRecord: file } },
  };
}

describe('the schema catalog in the browser', () => {
  it('answers from the bundled files where there is no server to ask', async () => {
    expect(catalogReady()).toBe(true);
    expect((await whenCatalogReady()).entities.project.table).toBe('construct_project');
    expect(entityForPath('/custom/pour-record')).toBeUndefined();
  });

  it('compiles the set the server answers, and the same version only once', async () => {
    const fetchSet = vi.fn(async () => withInstalledType('v2'));
    await loadCatalog(fetchSet);
    expect(fetchSet).toHaveBeenCalledWith('/api/schemas');
    expect(entityForPath('/custom/pour-record')?.label).toEqual({ zh: '浇筑记录', en: 'Pour record' });
    const compiled = catalog();
    await loadCatalog(fetchSet);
    expect(catalog()).toBe(compiled);
  });
});
