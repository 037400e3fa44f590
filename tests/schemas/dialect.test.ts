// The schema dialect as a schema author meets it: the real schema set compiles; each kind of defect,
// made in memory on a copy of the real files, refuses to compile with the file and JSON pointer named.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { snakeCase } from '../../src/engine/model/names.ts';
import type { SchemaSource } from '../../src/engine/model/source.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { issuesAfter } from './issues-after.ts';

const source = readSchemaSource();
const PROJECT = 'schemas/construct/project.schema.json';
const PARTY_A = 'schemas/construct/party-a.schema.json';
const PLAN = 'schemas/construct/material-total-demand.schema.json';
const PARAM = 'schemas/system/param.schema.json';
const DICT = 'schemas/system/dict.schema.json';

describe('the real schema set', () => {
  const { catalog, ajv } = compile(readSchemaSource());

  it('derives the data-scope rules of each document type, overridable in x-entity.dataScopes', () => {
    const rules = (key: string, catalog = compile(source, { validators: 'lazy' }).catalog) =>
      catalog.entities[key].dataScopes.map((r) => `${r.kind}:${r.scopeType}:${r.field ?? ''}`);
    expect(rules('materialTotalDemand')).toEqual([
      'all:1:',
      'ownDept:3:createDept',
      'deptTree:4:createDept',
      'own:2:createUser',
      'ownProject:6:projectId',
    ]);
    expect(rules('project')).toContain('ownProject:6:id');
    // master data without a project, the platform's entities and logs get none unless asked
    for (const key of ['partyA', 'user', 'dataScope', 'logApi', 'expenditureContractMaterial']) expect(rules(key)).toEqual([]);
    const copy = structuredClone(source) as SchemaSource & { files: Record<string, any> };
    copy.files[PLAN]['x-entity'].dataScopes = { own: false, ownDept: { field: 'updateUser' }, deptTree: false };
    copy.files[PARTY_A]['x-entity'].dataScopes = {};
    copy.files[PROJECT]['x-entity'].dataScopes = false;
    const catalog = compile(copy, { validators: 'lazy' }).catalog;
    expect(rules('materialTotalDemand', catalog)).toEqual(['all:1:', 'ownDept:3:updateUser', 'ownProject:6:projectId']);
    expect(rules('partyA', catalog)).toEqual(['all:1:', 'ownDept:3:createDept', 'deptTree:4:createDept', 'own:2:createUser']);
    expect(rules('project', catalog)).toEqual([]);
  });

  it('compiles every manifest entity', () => {
    const declared = Object.entries(catalog.entities).filter(([, m]) => !m.derived);
    expect(declared.map(([key]) => key).sort()).toEqual(Object.keys(source.manifest.entities).sort());
    for (const [key, model] of declared) {
      expect(model.key).toBe(key);
      expect(model.file).toBe(source.manifest.entities[key]);
      expect(model.label.zh).toBeTruthy();
      expect(model.label.en).toBeTruthy();
      expect(ajv.getSchema(model.schema.$id)).toBeTypeOf('function');
    }
  });

  it("derives the rows of every document's detail, unless an entity declared with x-entity.rowsOf reads them", () => {
    const declaredRows = new Set(
      Object.values(catalog.entities).flatMap((m) => (m.rowsOf && !m.derived ? [`${m.rowsOf.entity}.${m.rowsOf.detail}`] : [])),
    );
    expect(declaredRows).toContain('expenditureContract.details');
    for (const document of Object.values(catalog.entities).filter((m) => !m.rowsOf))
      for (const detail of document.details) {
        const derived = Object.values(catalog.entities).filter(
          (m) => m.derived && m.rowsOf!.entity === document.key && m.rowsOf!.detail === detail.name,
        );
        expect(derived.length, `${document.key}.${detail.name}`).toBe(declaredRows.has(`${document.key}.${detail.name}`) ? 0 : 1);
        for (const m of derived) {
          expect(m).toMatchObject({ file: document.file, table: detail.table, scope: document.scope, readOnly: true });
          expect(m.menu, m.key).toBeUndefined();
          expect(m.label.zh && m.label.en).toBeTruthy();
          // the document's search fields filter its rows too, unless a row field has the name
          for (const s of document.search)
            if (!(s.field in detail.fieldMap) && document.fieldMap[s.field].kind !== 'json')
              expect(m.fieldMap, `${m.key}.${s.field}`).toHaveProperty(s.field);
        }
      }
    expect(catalog.entities.laborMonthlySettlementDetail.api).toBe('/api/construct/laborMonthlySettlementDetail');
    expect(catalog.entities.materialTotalDemandDetail.rowsOf).toMatchObject({ entity: 'materialTotalDemand', detail: 'details' });
    expect(catalog.entities.expenditureContractDetail).toBeUndefined();
  });

  it('reports a derived rows key another entity already has, with the detail that needs it', () => {
    const issues = issuesAfter((s) => {
      // the warning tips' schema, filed under the key the demand's rows would get
      const file = s.manifest.entities.warnTip;
      s.manifest.entities = Object.fromEntries(
        Object.entries(s.manifest.entities).map(([k, v]) => [k === 'warnTip' ? 'materialTotalDemandDetail' : k, v]),
      );
      s.files[file]['x-entity'].key = 'materialTotalDemandDetail';
    });
    expect(issues).toContainEqual({
      file: 'schemas/construct/material-total-demand.schema.json',
      pointer: '/properties/details',
      message: expect.stringContaining('"materialTotalDemandDetail"'),
    });
  });

  it('loads the dictionaries of both sources', () => {
    const codes = catalog.dictionaries.map((d) => `${d.source}:${d.code}`);
    expect(codes).toContain('biz:project_type');
    expect(codes).toContain('system:yes_no');
  });

  it('is deeply frozen: nothing downstream can change a model', () => {
    const model = catalog.entities.project;
    expect(Object.isFrozen(catalog.entities)).toBe(true);
    expect(Object.isFrozen(model)).toBe(true);
    expect(Object.isFrozen(model.fields)).toBe(true);
    expect(Object.isFrozen(model.fieldMap.name)).toBe(true);
    expect(Object.isFrozen(model.fieldMap.name.label)).toBe(true);
    expect(Object.isFrozen(catalog.entities.materialTotalDemand.details[0].fields)).toBe(true);
    expect(() => {
      (model.fields as unknown as unknown[]).push({});
    }).toThrow(TypeError);
    expect(() => {
      (model.fieldMap.name as { maxLength?: number }).maxLength = 1;
    }).toThrow(TypeError);
    expect(model.fieldMap.name.maxLength).toBe(100);
  });

  it('does not change the source it was given', () => {
    const fresh = readSchemaSource();
    compile(fresh);
    expect(fresh).toEqual(readSchemaSource());
  });

  it('gives every header the system columns with their SQL types, first', () => {
    for (const model of Object.values(catalog.entities).filter((m) => !m.rowsOf)) {
      const f = model.fieldMap;
      expect(model.fields[0].name, model.key).toBe('id');
      expect(f.id).toMatchObject({ column: 'id', kind: 'id', sqlType: 'bigint', system: true, readOnly: true });
      expect(f.createUser).toMatchObject({ column: 'create_user', sqlType: 'bigint', system: true });
      expect(f.createDept).toMatchObject({ column: 'create_dept', sqlType: 'bigint', system: true });
      expect(f.createTime).toMatchObject({ column: 'create_time', kind: 'datetime', sqlType: 'timestamp(0)', system: true });
      expect(f.updateUser).toMatchObject({ column: 'update_user', sqlType: 'bigint', system: true });
      expect(f.updateTime).toMatchObject({ column: 'update_time', kind: 'datetime', sqlType: 'timestamp(0)', system: true });
      // shared rows a tenant may add to (x-entity.tenantRows: data-scope rules) carry their tenant too
      if (model.scope === 'tenant' || model.tenantRows)
        expect(f.tenantId, model.key).toMatchObject({ column: 'tenant_id', sqlType: 'varchar(12)', system: true });
      else expect(f.tenantId?.system, model.key).not.toBe(true);
      if (model.softDelete) expect(f.isDeleted, model.key).toMatchObject({ column: 'is_deleted', sqlType: 'integer', system: true });
    }
    expect(catalog.entities.project.scope).toBe('tenant');
    expect(catalog.entities.dict.scope).toBe('shared');
  });

  it('gives rows of another document (x-entity.rowsOf) the columns of its detail rows: no audit or delete columns', () => {
    const lines = catalog.entities.expenditureContractMaterial;
    const detail = catalog.entities.expenditureContract.details[0];
    expect(lines).toMatchObject({
      readOnly: true,
      softDelete: false,
      table: detail.table,
      rowsOf: { entity: 'expenditureContract', detail: 'details' },
    });
    expect(lines.fields.slice(0, 4).map((f) => [f.name, f.column, f.system])).toEqual([
      ['id', 'id', true],
      ['tenantId', 'tenant_id', true],
      ['expenditureContractId', 'expenditure_contract_id', true],
      ['sortNo', 'sort_no', true],
    ]);
    expect(lines.fieldMap.createUser).toBeUndefined();
    expect(lines.fieldMap.quantity).toMatchObject({ column: detail.fieldMap.quantity.column, sqlType: detail.fieldMap.quantity.sqlType });
  });

  it('gives detail rows an id, the tenant, the foreign key and the row order', () => {
    const detail = catalog.entities.materialTotalDemand.details[0];
    expect(detail).toMatchObject({
      name: 'details',
      table: 'construct_material_total_demand_detail',
      foreignKey: 'materialTotalDemandId',
      minRows: 1,
    });
    expect(detail.fields.slice(0, 4).map((f) => [f.name, f.column, f.sqlType, f.system])).toEqual([
      ['id', 'id', 'bigint', true],
      ['tenantId', 'tenant_id', 'varchar(12)', true],
      ['materialTotalDemandId', 'material_total_demand_id', 'bigint', true],
      ['sortNo', 'sort_no', 'integer', true],
    ]);
  });

  it('derives SQL types and columns from the schema', () => {
    const project = catalog.entities.project.fieldMap;
    expect(project.partyAId).toMatchObject({ column: 'party_a_id', kind: 'id', sqlType: 'bigint', index: true });
    expect(project.name).toMatchObject({ sqlType: 'varchar(100)', unique: true, required: true });
    expect(project.targetCost).toMatchObject({ kind: 'decimal', sqlType: 'numeric(18,2)', scale: 2 });
    expect(project.plannedStartDate).toMatchObject({ kind: 'date', sqlType: 'date' });
    const row = catalog.entities.materialTotalDemand.details[0].fieldMap;
    expect(row.designQty).toMatchObject({ sqlType: 'numeric(18,4)', scale: 4 });
    expect(row.lossRate).toMatchObject({ sqlType: 'numeric(7,4)', scale: 4 });
    expect(row.plannedStartMonth).toMatchObject({ kind: 'month', sqlType: 'varchar(7)' });
    expect(row.amount).toMatchObject({ readOnly: true, compute: { scale: 2, mode: 'always' } });
    expect(row.demandQty).toMatchObject({ readOnly: false, compute: { scale: 4, mode: 'default' } });
  });

  it('turns camelCase names into snake_case columns', () => {
    expect(snakeCase('partyAId')).toBe('party_a_id');
    expect(snakeCase('materialTotalDemandId')).toBe('material_total_demand_id');
    expect(snakeCase('code')).toBe('code');
  });
});

describe('defects refuse to compile, naming the file and the JSON pointer', () => {
  it('a typo’d x- keyword (x-entiy) at the document level', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT]['x-entiy'] = s.files[PROJECT]['x-entity'];
    });
    // once, plainly: not with each branch of the meta-schema's rule for x- names
    expect(issues).toEqual([{ file: PROJECT, pointer: '/x-entiy', message: 'unknown keyword "x-entiy"' }]);
  });

  it('a typo’d x- keyword on a property', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT].properties.name['x-dcit'] = { code: 'project_type' };
    });
    expect(issues).toEqual([{ file: PROJECT, pointer: '/properties/name/x-dcit', message: 'unknown keyword "x-dcit"' }]);
  });

  it("a property name a keyword's own rule refuses (an x-workflow variable), once, with the rule", () => {
    const issues = issuesAfter((s) => {
      s.files[PLAN]['x-workflow'].variables = { '1amount': 'totalAmount' };
    });
    expect(issues).toEqual([
      {
        file: PLAN,
        pointer: '/x-workflow/variables/1amount',
        message: 'name "1amount" is not allowed here: it must match pattern "^[A-Za-z_$][A-Za-z0-9_$]*$"',
      },
    ]);
  });

  it('a $ref to a file that is not in the set, at the property that has it', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT].properties.name = { $ref: '../common/kinds.schema.json#/$defs/name' };
    });
    expect(issues).toEqual([
      {
        file: PROJECT,
        pointer: '/properties/name',
        message:
          '$ref "../common/kinds.schema.json#/$defs/name" names a file that is not in the schema set: schemas/common/kinds.schema.json',
      },
    ]);
  });

  it('a $ref to a definition its file does not have', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT].properties.partyAId.$ref = '../common/types.schema.json#/$defs/identifier';
    });
    expect(issues).toEqual([
      {
        file: PROJECT,
        pointer: '/properties/partyAId',
        message: '$ref "../common/types.schema.json#/$defs/identifier" points at nothing in schemas/common/types.schema.json',
      },
    ]);
  });

  it('a value of the wrong type (x-db.unique: "yes")', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT].properties.name['x-db'].unique = 'yes';
    });
    expect(issues).toEqual([{ file: PROJECT, pointer: '/properties/name/x-db/unique', message: 'must be boolean' }]);
  });

  it('an unknown sub-key inside an x- keyword', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT].properties.name['x-db'].uniq = true;
    });
    expect(issues).toContainEqual(
      expect.objectContaining({ file: PROJECT, pointer: '/properties/name/x-db', message: expect.stringContaining('"uniq"') }),
    );
  });

  it('a list column that is not a property', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT]['x-list'].columns.push('nmae');
    });
    expect(issues).toEqual([{ file: PROJECT, pointer: '/x-list/columns/8', message: 'list column "nmae" is not a readable property' }]);
  });

  it('a search field that is not a property', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT]['x-search'].fields[1].field = 'projectKind';
    });
    expect(issues).toEqual([
      { file: PROJECT, pointer: '/x-search/fields/1/field', message: 'search field "projectKind" is not a readable property' },
    ]);
  });

  it('x-ref to an unknown entity', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT].properties.partyAId['x-ref'].entity = 'partyB';
    });
    expect(issues).toEqual([
      { file: PROJECT, pointer: '/properties/partyAId/x-ref/entity', message: 'x-ref names unknown entity "partyB"' },
    ]);
  });

  it('x-ref.inherit naming what the records do not hold, onto a read-only field, or in a detail row', () => {
    const SETTLEMENT = 'schemas/construct/subcontract-monthly-settlement.schema.json';
    const issues = issuesAfter((s) => {
      const props = s.files[SETTLEMENT].properties;
      props.expenditureContractCode['x-ref'].inherit = {
        partyId: 'subcontractorId',
        taxRate: 'taxRates',
        contractAmount: 'contractAmount',
        period: 'taxRate',
      };
      props.details.items.properties.contractDetailId['x-ref'] = { entity: 'expenditureContract', inherit: { itemCode: 'code' } };
    });
    const at = '/properties/expenditureContractCode/x-ref/inherit';
    expect(issues).toEqual(
      expect.arrayContaining([
        { file: SETTLEMENT, pointer: at, message: 'inherit target "partyId" is not a field of this record' },
        { file: SETTLEMENT, pointer: at, message: 'inherit source "taxRates" is not a field of expenditureContract' },
        { file: SETTLEMENT, pointer: at, message: 'inherit target "contractAmount" is read-only (a snapshot belongs in x-ref.copy)' },
        { file: SETTLEMENT, pointer: at, message: 'inherit target "period" (month) and source "taxRate" (decimal) differ in kind' },
        {
          file: SETTLEMENT,
          pointer: '/properties/details/items/properties/contractDetailId/x-ref/inherit',
          message: 'only a header reference passes terms on (x-ref.inherit)',
        },
      ]),
    );
  });

  it('x-dict with an unknown dictionary code', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT].properties.projectType['x-dict'].code = 'project_kind';
    });
    expect(issues).toEqual([
      { file: PROJECT, pointer: '/properties/projectType/x-dict/code', message: 'unknown biz dictionary "project_kind"' },
    ]);
  });

  it('x-dict naming a dictionary of the other source', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT].properties.projectType['x-dict'].source = 'system';
    });
    expect(issues).toEqual([
      { file: PROJECT, pointer: '/properties/projectType/x-dict/code', message: 'unknown system dictionary "project_type"' },
    ]);
  });

  it('a title without x-i18n English text, on a property', () => {
    const issues = issuesAfter((s) => {
      delete s.files[PROJECT].properties.shortName['x-i18n'];
    });
    expect(issues).toEqual([
      { file: PROJECT, pointer: '/properties/shortName', message: 'title "项目简称" has no English text (x-i18n.title)' },
    ]);
  });

  it('a title without x-i18n English text, on a detail column and on a layout section', () => {
    const issues = issuesAfter((s) => {
      delete s.files[PLAN].properties.details.items.properties.spec['x-i18n'];
      delete s.files[PLAN]['x-layout'].sections[1]['x-i18n'];
    });
    expect(issues).toEqual([
      { file: PLAN, pointer: '/x-layout/sections/1', message: 'title "物资明细" has no English text (x-i18n.title)' },
      { file: PLAN, pointer: '/properties/details/items/properties/spec', message: 'title "规格型号" has no English text (x-i18n.title)' },
    ]);
  });

  it('a fill button sending an unknown field, requiring one it does not send, or filling an unknown detail', () => {
    const issues = issuesAfter((s) => {
      s.files[PLAN]['x-layout'].fill = [
        {
          route: 'generate',
          title: '生成',
          'x-i18n': { title: 'Generate' },
          params: { projectId: 'projectId', month: 'periodMonth' },
          required: ['remark'],
          detail: 'lines',
        },
      ];
    });
    expect(issues).toEqual([
      {
        file: PLAN,
        pointer: '/x-layout/fill/0/params/month',
        message: 'fill parameter month reads "periodMonth", which is not a property',
      },
      { file: PLAN, pointer: '/x-layout/fill/0/required/0', message: 'required fill field "remark" is not one of its params' },
      { file: PLAN, pointer: '/x-layout/fill/0/detail', message: 'fill detail "lines" is not a detail of the entity' },
    ]);
  });

  it('an x-compute reading an unknown field', () => {
    const issues = issuesAfter((s) => {
      s.files[PLAN].properties.details.items.properties.amount['x-compute'].expr = { mul: ['effectiveQty', 'budgetPrise'] };
    });
    expect(issues).toEqual([
      {
        file: PLAN,
        pointer: '/properties/details/items/properties/amount/x-compute/expr',
        message: 'expression reads unknown field "budgetPrise"',
      },
    ]);
  });

  it('an x-compute summing an unknown detail column', () => {
    const issues = issuesAfter((s) => {
      s.files[PLAN].properties.totalAmount['x-compute'].expr = { sum: 'details.amout' };
    });
    expect(issues).toEqual([
      { file: PLAN, pointer: '/properties/totalAmount/x-compute/expr', message: 'sum over unknown field "details.amout"' },
    ]);
  });

  it('an x-compute whose types do not fit: arithmetic over a month, a date difference of a text', () => {
    const issues = issuesAfter((s) => {
      s.files[PLAN].properties.details.items.properties.amount['x-compute'].expr = { mul: ['effectiveQty', 'plannedStartMonth'] };
      s.files[PLAN].properties.totalAmount['x-compute'].expr = { days: ['planDate', 'title'] };
    });
    expect(issues).toEqual([
      { file: PLAN, pointer: '/properties/totalAmount/x-compute/expr', message: 'days needs a date, "title" is a text' },
      {
        file: PLAN,
        pointer: '/properties/details/items/properties/amount/x-compute/expr',
        message: 'mul needs a number, "plannedStartMonth" is a text',
      },
    ]);
  });

  it('an x-compute yielding a text that is not a value of its dictionary', () => {
    const issues = issuesAfter((s) => {
      s.files['schemas/system/dept.schema.json'].properties.deptCategory['x-compute'] = {
        expr: { if: { sort: { _gt: 10 } }, then: { text: '1' }, else: { text: '9' } },
      };
    });
    expect(issues).toEqual([
      {
        file: 'schemas/system/dept.schema.json',
        pointer: '/properties/deptCategory/x-compute/expr',
        message: 'text "9" is not a value of "deptCategory"',
      },
    ]);
  });

  it('a multi-select dictionary field searched with an operator other than equal', () => {
    const file = 'schemas/construct/subcontractor.schema.json';
    const issues = issuesAfter((s) => {
      s.files[file]['x-search'].fields.push({ field: 'subcontractorTypes', operator: 'like' });
    });
    expect(issues).toEqual([
      {
        file,
        pointer: expect.stringMatching(/^\/x-search\/fields\/\d+\/operator$/),
        message: 'a multi-select field is searched with "equal" (any of the chosen values), not "like"',
      },
    ]);
  });

  it('an x-compute cycle', () => {
    const issues = issuesAfter((s) => {
      s.files[PLAN].properties.details.items.properties.demandQty['x-compute'].expr = { add: ['amount', 1] };
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: PLAN, pointer: '/properties/details/items' });
    expect(issues[0].message).toMatch(/^x-compute cycle: .*demandQty.*amount.*effectiveQty/);
  });

  it('an x-rules condition naming an unknown field', () => {
    const issues = issuesAfter((s) => {
      s.files['schemas/system/dict.schema.json'].properties.dictKey['x-rules'].requiredIf = { parentID: { _neq: '0' } };
    });
    expect(issues).toEqual([
      {
        file: 'schemas/system/dict.schema.json',
        pointer: '/properties/dictKey/x-rules/requiredIf',
        message: 'condition names unknown field "parentID"',
      },
    ]);
  });

  it('an x-entity.permanentIf naming an unknown field', () => {
    const file = 'schemas/system/tenant.schema.json';
    const issues = issuesAfter((s) => {
      s.files[file]['x-entity'].permanentIf = { tenantID: { _eq: '000000' } };
    });
    expect(issues).toEqual([{ file, pointer: '/x-entity/permanentIf', message: 'permanentIf names unknown field "tenantID"' }]);
  });

  it('an x-db.uniqueWithin naming an unknown field or the field itself, a uniqueWhen with a token or without uniqueWithin', () => {
    const file = 'schemas/system/dict-biz.schema.json';
    const issues = issuesAfter((s) => {
      const props = s.files[file].properties;
      props.code['x-db'] = { uniqueWithin: ['parentID', 'code'], uniqueWhen: { parentId: { _eq: '$user.deptId' } } };
      props.dictValue['x-db'] = { uniqueWhen: { parentId: { _eq: '0' } } };
      props.sort['x-db'] = { unique: true, uniqueWithin: ['parentId'] };
    });
    const at = (field: string, rest: string) => ({ file, pointer: `/properties/${field}/x-db/${rest}` });
    expect(issues).toEqual(
      expect.arrayContaining([
        { ...at('code', 'uniqueWithin/0'), message: '"parentID" is not a stored field of the record' },
        { ...at('code', 'uniqueWithin/1'), message: 'a field cannot be unique within itself' },
        { ...at('code', 'uniqueWhen'), message: 'uniqueWhen compares with constants only (no $ tokens)' },
        { ...at('dictValue', 'uniqueWhen'), message: 'uniqueWhen narrows uniqueWithin, which is missing' },
        { ...at('sort', 'uniqueWithin'), message: 'a field is either unique or uniqueWithin, not both' },
      ]),
    );
    expect(issues).toHaveLength(5);
  });

  it('an x-rules.atLeast naming an unknown field, the field itself, or a field of another kind', () => {
    const issues = issuesAfter((s) => {
      const props = s.files[PROJECT].properties;
      props.plannedEndDate['x-rules'].atLeast = 'plannedStart';
      props.actualEndDate['x-rules'].atLeast = ['actualEndDate'];
      props.actualStartDate['x-rules'] = { atLeast: 'targetCost' };
    });
    const at = '/x-rules/atLeast';
    expect(issues).toEqual(
      expect.arrayContaining([
        { file: PROJECT, pointer: `/properties/plannedEndDate${at}`, message: 'atLeast names unknown field "plannedStart"' },
        { file: PROJECT, pointer: `/properties/actualEndDate${at}`, message: 'atLeast names the field itself' },
        {
          file: PROJECT,
          pointer: `/properties/actualStartDate${at}`,
          message: 'atLeast compares "actualStartDate" (date) with "targetCost" (decimal): both must be numbers, or dates of one kind',
        },
      ]),
    );
    expect(issues).toHaveLength(3);
  });

  it('a status the workflow or the cumulatives write that a client could set, or a value it cannot hold', () => {
    const CONTRACT = 'schemas/construct/expenditure-contract.schema.json';
    const SETTLEMENT = 'schemas/construct/labor-monthly-settlement.schema.json';
    const issues = issuesAfter((s) => {
      s.files[CONTRACT].properties.settlementStatus.readOnly = false;
      s.files[CONTRACT]['x-workflow'].onApproved = { performanceStatus: 'running', remark: '已审批' };
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { file: CONTRACT, pointer: '/x-workflow/onApproved/performanceStatus', message: '"running" is not a value of "performanceStatus"' },
        {
          file: CONTRACT,
          pointer: '/x-workflow/onApproved/remark',
          message: 'onApproved field "remark" must be readOnly (only the workflow sets it)',
        },
        {
          file: SETTLEMENT,
          pointer: '/x-cumulative/contract/status/field',
          message: '"settlementStatus" of expenditureContract must be readOnly (the server writes it)',
        },
      ]),
    );
  });

  it('an x-entity.key differing from its manifest key', () => {
    const issues = issuesAfter((s) => {
      s.files[PARAM]['x-entity'].key = 'params';
    });
    expect(issues).toEqual([
      { file: PARAM, pointer: '/x-entity/key', message: 'x-entity.key "params" differs from the manifest key "param"' },
    ]);
  });

  it('a manifest key differing from the file’s x-entity.key', () => {
    const issues = issuesAfter((s) => {
      s.manifest.entities = Object.fromEntries(Object.entries(s.manifest.entities).map(([k, v]) => [k === 'param' ? 'sysParam' : k, v]));
    });
    expect(issues).toEqual([
      { file: PARAM, pointer: '/x-entity/key', message: 'x-entity.key "param" differs from the manifest key "sysParam"' },
    ]);
  });

  it('two entities claiming one table', () => {
    const issues = issuesAfter((s) => {
      s.files[PARTY_A]['x-entity'].table = s.files[PROJECT]['x-entity'].table;
    });
    expect(issues).toEqual([
      { file: PARTY_A, pointer: '/x-entity/table', message: 'table "construct_project" is already used by project' },
    ]);
  });

  it('a detail table clashing with a header table', () => {
    const issues = issuesAfter((s) => {
      s.files[PLAN].properties.details['x-detail'].table = 'construct_project';
    });
    expect(issues).toEqual([
      { file: PLAN, pointer: '/properties/details/x-detail/table', message: 'table "construct_project" is already used by project' },
    ]);
  });

  it('a link table (x-db.link) on what is not a comma-joined reference, bounded by characters, or clashing with a table', () => {
    const PACKAGE = 'schemas/system/tenant-package.schema.json';
    const USER = 'schemas/system/user.schema.json';
    const notJoined = issuesAfter((s) => {
      delete s.files[PACKAGE].properties.menuId['x-ref'].separator;
    });
    expect(notJoined).toEqual([
      {
        file: PACKAGE,
        pointer: '/properties/menuId/x-db/link',
        message: '"menuId" keeps its values in a link table but is not a comma-joined reference (x-ref.separator)',
      },
    ]);
    // a user's roles (maxLength 1000) moved to a table that is a project's
    const clashing = issuesAfter((s) => {
      s.files[USER].properties.roleId['x-db'] = { link: { table: 'construct_project', ownerColumn: 'user_id', maxItems: 50 } };
    });
    expect(clashing).toEqual([
      {
        file: USER,
        pointer: '/properties/roleId/x-db/link',
        message: '"roleId" is bounded by x-db.link.maxItems; a maxLength would cap it by characters again',
      },
      { file: PROJECT, pointer: '/x-entity/table', message: 'table "construct_project" is already used by user' },
    ]);
  });

  it('a manifest entry whose file does not exist', () => {
    const issues = issuesAfter((s) => {
      s.manifest.entities.ghost = 'schemas/construct/ghost.schema.json';
    });
    expect(issues).toEqual([
      { file: 'entities.manifest.json', pointer: '/entities/ghost', message: 'file not found: schemas/construct/ghost.schema.json' },
    ]);
  });

  it('a string property without maxLength', () => {
    const issues = issuesAfter((s) => {
      delete s.files[PROJECT].properties.shortName.maxLength;
    });
    expect(issues).toEqual([{ file: PROJECT, pointer: '/properties/shortName', message: 'string property "shortName" needs maxLength' }]);
  });

  it('a readOnly entity offering writes: edit and delete actions, a write alias, a workflow', () => {
    const issues = issuesAfter((s) => {
      const param = s.files[PARAM];
      param['x-entity'].readOnly = true;
      param['x-entity'].routes = { saveAll: 'save' };
    });
    expect(issues).toEqual([
      { file: PARAM, pointer: '/x-list/rowActions/1', message: 'row action "edit" on a readOnly entity' },
      { file: PARAM, pointer: '/x-list/rowActions/2', message: 'row action "delete" on a readOnly entity' },
      { file: PARAM, pointer: '/x-list/batchActions/0', message: 'batch delete on a readOnly entity' },
      {
        file: PARAM,
        pointer: '/x-entity/routes/saveAll',
        message: 'route "saveAll" answers like "save", which a readOnly entity does not have',
      },
    ]);
    const workflow = issuesAfter((s) => {
      s.files[PLAN]['x-entity'].readOnly = true;
      s.files[PLAN]['x-list'].rowActions = ['view'];
      s.files[PLAN]['x-list'].batchActions = [];
    });
    expect(workflow).toContainEqual({
      file: PLAN,
      pointer: '/x-workflow',
      message: 'a readOnly entity cannot pass through a workflow (submit writes it)',
    });
  });

  it('a readOnly entity lists and views only, by default', () => {
    const copy = structuredClone(source);
    const param = (copy.files as Record<string, any>)[PARAM];
    param['x-entity'].readOnly = true;
    delete param['x-list'].rowActions;
    delete param['x-list'].batchActions;
    const model = compile(copy).catalog.entities.param;
    expect(model).toMatchObject({ readOnly: true, list: { rowActions: ['view'], batchActions: [] } });
  });

  describe('x-entity.rowsOf (rows of another document as a resource)', () => {
    const LINES = 'schemas/construct/expenditure-contract-material.schema.json';
    const messages = (change: (s: SchemaSource & { files: Record<string, any> }) => void) =>
      issuesAfter(change)
        .filter((i) => i.file === LINES)
        .map((i) => `${i.pointer}: ${i.message}`)
        .sort();

    it('rows that are not read-only, in another table, with a numbering of their own', () => {
      expect(
        messages((s) => {
          const entity = s.files[LINES]['x-entity'];
          entity.readOnly = false;
          entity.table = 'construct_contract_line';
          entity.code = { field: 'goodsCode', prefix: 'HTQD' };
          s.files[LINES]['x-list'].rowActions = ['view'];
          s.files[LINES]['x-list'].batchActions = [];
        }),
      ).toEqual([
        '/x-entity/code: "code" does not apply to rows of another document',
        '/x-entity/readOnly: rows of another document are written through that document: set x-entity.readOnly',
        '/x-entity/table: rows of expenditureContract.details live in its table "construct_expenditure_contract_material", not "construct_contract_line"',
      ]);
    });

    it('a document or detail that does not exist', () => {
      expect(
        messages((s) => {
          s.files[LINES]['x-entity'].rowsOf.detail = 'lines';
        }),
      ).toContain('/x-entity/rowsOf/detail: expenditureContract has no detail array "lines"');
    });

    it('properties that are neither row fields nor fields of the document', () => {
      expect(
        messages((s) => {
          const lines = s.files[LINES];
          lines.properties.weight = { type: 'number', title: '重量', 'x-i18n': { title: 'Weight' } };
          lines['x-entity'].rowsOf.parentFields.contractName = 'title';
          lines['x-entity'].rowsOf.parentFields.quantity = 'contractAmount';
          lines.properties.spec = { type: 'integer', title: '规格', 'x-i18n': { title: 'Spec' } };
        }),
      ).toEqual([
        '/properties/spec: "spec" must be read as expenditureContract.details.spec is stored (string, column spec)',
        '/properties/weight: "weight" is neither a row field of expenditureContract.details nor named in x-entity.rowsOf.parentFields',
        '/x-entity/rowsOf/parentFields/contractName: "title" is not a header field of expenditureContract',
        '/x-entity/rowsOf/parentFields/quantity: "quantity" is a row field of expenditureContract.details; a parent field needs another name',
      ]);
    });
  });

  describe("x-detail.pickFrom (rows picked from another document's lines)", () => {
    const DEMAND = 'schemas/construct/material-monthly-demand.schema.json';
    const at = (i: number, ...rest: string[]) => ['', 'properties', 'details', 'x-detail', 'pickFrom', String(i), ...rest].join('/');
    const pick = (s: SchemaSource & { files: Record<string, any> }) => s.files[DEMAND].properties.details['x-detail'].pickFrom[0];

    it('compiles to the entity its header refers to', () => {
      const [byContract] = compile(readSchemaSource()).catalog.entities.materialMonthlyDemand.details[0].pickFrom;
      expect(byContract).toMatchObject({
        header: 'expenditureContractCode',
        entity: 'expenditureContract',
        detail: 'details',
        rowId: 'contractDetailId',
      });
    });

    it('a header field that is no reference', () => {
      const issues = issuesAfter((s) => {
        pick(s).header = 'period';
      });
      expect(issues).toContainEqual(
        expect.objectContaining({ file: DEMAND, pointer: at(0, 'header'), message: expect.stringContaining('not a single reference') }),
      );
    });

    it('a source detail array that does not exist', () => {
      const issues = issuesAfter((s) => {
        pick(s).detail = 'lines';
      });
      expect(issues).toContainEqual(
        expect.objectContaining({ pointer: at(0, 'detail'), message: 'expenditureContract has no detail array "lines"' }),
      );
    });

    it('a row id that is not a writable id field', () => {
      const issues = issuesAfter((s) => {
        pick(s).rowId = 'workPart';
      });
      expect(issues).toContainEqual(
        expect.objectContaining({ pointer: at(0, 'rowId'), message: expect.stringContaining('must be a writable id') }),
      );
    });

    it('copied fields that do not exist or do not fit', () => {
      const issues = issuesAfter((s) => {
        pick(s).map = { demandQty: 'spec', price: 'nope', nothing: 'quantity' };
      });
      expect(issues.map((i) => `${i.pointer}: ${i.message}`).sort()).toEqual([
        `${at(0, 'map', 'demandQty')}: expenditureContract.details.spec cannot fill "demandQty": string into decimal`,
        `${at(0, 'map', 'nothing')}: "nothing" is not a field of the rows it could fill`,
        `${at(0, 'map', 'price')}: "nope" is not a field of expenditureContract.details`,
      ]);
    });

    it('repeats told apart by a field the rows do not have', () => {
      const issues = issuesAfter((s) => {
        pick(s).unique = ['workPart', 'checkId', 'contractDetailId'];
      });
      expect(issues.map((i) => `${i.pointer}: ${i.message}`)).toEqual([
        `${at(0, 'unique', '1')}: "checkId" is not a field of the rows that could tell two picks of one line apart`,
        `${at(0, 'unique', '2')}: "contractDetailId" is not a field of the rows that could tell two picks of one line apart`,
      ]);
    });

    it('a longer text into a shorter field', () => {
      const issues = issuesAfter((s) => {
        pick(s).map = { unit: 'goodsName' };
      });
      expect(issues).toContainEqual(
        expect.objectContaining({ pointer: at(0, 'map', 'unit'), message: expect.stringContaining('text up to 100 characters into 20') }),
      );
    });
  });

  it('reports several defects in several files at once', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT]['x-list'].columns.push('nmae');
      s.files[PLAN]['x-search'].fields.push({ field: 'nope' });
    });
    expect(issues.map((i) => `${i.file}#${i.pointer}`).sort()).toEqual([
      `${PLAN}#/x-search/fields/5/field`,
      `${PROJECT}#/x-list/columns/8`,
    ]);
  });
  it('x-entity.dataScopes comparing what is no property or not the right kind, or on an entity without rules', () => {
    const issues = issuesAfter((s) => {
      s.files[PLAN]['x-entity'].dataScopes = {
        own: { field: 'ownerId' },
        ownProject: { field: 'createUser' },
        deptTree: { field: 'remark' },
      };
      s.files[DICT]['x-entity'].dataScopes = {};
      s.files[PARTY_A]['x-entity'].dataScopes = { ownProject: true };
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { file: PLAN, pointer: '/x-entity/dataScopes/own/field', message: '"ownerId" is not a header property' },
        {
          file: PLAN,
          pointer: '/x-entity/dataScopes/ownProject/field',
          message: '"createUser" must name a project (an id or a reference to it)',
        },
        { file: PLAN, pointer: '/x-entity/dataScopes/deptTree/field', message: '"remark" must name a dept (an id or a reference to it)' },
        {
          file: PARTY_A,
          pointer: '/x-entity/dataScopes/ownProject',
          message: 'partyA has no reference to project: name the field ({"field": …})',
        },
      ]),
    );
    expect(issues).toContainEqual({
      file: DICT,
      pointer: '/x-entity/dataScopes',
      message: 'data scopes need a tenant entity with a menu (x-entity.menu)',
    });
  });

  it('x-entity.tenantRows on an entity that is not shared', () => {
    const issues = issuesAfter((s) => {
      s.files[PROJECT]['x-entity'].tenantRows = true;
    });
    expect(issues).toEqual([{ file: PROJECT, pointer: '/x-entity/tenantRows', message: 'tenantRows applies to shared entities only' }]);
  });

  describe('field roles (x-entity.fieldRoles, x-detail.fieldRoles)', () => {
    const CHECK = 'schemas/construct/material-check.schema.json';

    it('a field role naming no property', () => {
      const issues = issuesAfter((s) => {
        s.files[CHECK]['x-entity'].fieldRoles.date = 'checkedOn';
      });
      expect(issues).toContainEqual({
        file: CHECK,
        pointer: '/x-entity/fieldRoles/date',
        message: 'field role "date" names "checkedOn", which is not a stored property',
      });
    });

    it("a document role's field that refers to no document of that role", () => {
      const issues = issuesAfter((s) => {
        s.files[CHECK]['x-entity'].fieldRoles['master.project'] = 'warehouseId';
      });
      expect(issues).toEqual([
        {
          file: CHECK,
          pointer: '/x-entity/fieldRoles/master.project',
          message: 'field role "master.project" names "warehouseId", which does not refer to a document type playing "master.project"',
        },
      ]);
    });

    it('two references to documents of one role, and none named', () => {
      const issues = issuesAfter((s) => {
        s.files[CHECK].properties.usedOnProjectId = { ...s.files[CHECK].properties.projectId };
      });
      expect(issues).toContainEqual({
        file: CHECK,
        pointer: '/x-entity/fieldRoles',
        message: 'projectId and usedOnProjectId both refer to "master.project": name one in fieldRoles ({"master.project": …})',
      });
    });

    it('a row field role naming no row property', () => {
      const issues = issuesAfter((s) => {
        // added beside the roles the check's rules read, so that only the name is wrong
        const lines = s.files[CHECK].properties.details['x-detail'];
        lines.fieldRoles = { ...lines.fieldRoles, countedQuantity: 'countedQty' };
      });
      expect(issues).toEqual([
        {
          file: CHECK,
          pointer: '/properties/details/x-detail/fieldRoles/countedQuantity',
          message: 'field role "countedQuantity" names "countedQty", which is not a stored property',
        },
      ]);
    });

    it('a document role whose rules read a field role the document does not name (the cost pack)', () => {
      const issues = issuesAfter((s) => {
        delete s.files[CHECK]['x-entity'].fieldRoles;
      });
      expect(issues).toEqual([
        {
          file: CHECK,
          pointer: '/x-entity/fieldRoles',
          message:
            'materialCheck plays "settlement.activity", whose rules read a field playing "period" or "date": name it in x-entity.fieldRoles',
        },
        // and the material ledger's receipts
        {
          file: CHECK,
          pointer: '/x-entity/fieldRoles',
          message: 'materialCheck plays "stock.receipt", whose rules read a field playing "date": name it in x-entity.fieldRoles',
        },
        {
          file: CHECK,
          pointer: '/x-entity/fieldRoles',
          message: 'materialCheck plays "stock.receipt", whose rules read a field playing "source": name it in x-entity.fieldRoles',
        },
      ]);
    });

    it("a document role whose rules read a field role of the lines holding the goods, which they do not name (the ledger's receipts)", () => {
      const issues = issuesAfter((s) => {
        delete s.files[CHECK].properties.details['x-detail'].fieldRoles.quantity;
      });
      expect(issues).toEqual([
        {
          file: CHECK,
          pointer: '/properties/details/x-detail/fieldRoles',
          message:
            'materialCheck plays "stock.receipt", whose rules read a line field playing "quantity": name it in the x-detail.fieldRoles of details',
        },
      ]);
    });

    it('a document role whose rules read its lines, and no detail holding goods', () => {
      const issues = issuesAfter((s) => {
        const details = s.files[CHECK].properties.details;
        delete details.items.properties.goodsId['x-ref'];
        delete details['x-detail'].pickFrom;
      });
      expect(issues).toContainEqual({
        file: CHECK,
        pointer: '/x-entity/roles',
        message: 'materialCheck plays "stock.receipt", whose rules read its lines: no detail\'s rows refer to "master.goods"',
      });
    });
  });
});
