// compile() with checks: 'skip' (the browser's copy of the server's set) builds the same catalog
// and validates records as the fully checked compile does; only the checks of the files are left out.
import { describe, expect, it } from 'vitest';
import { readSchemaSource } from '../../server/schema-source.ts';
import { validateRecord } from '../validate/record.ts';
import { compile } from './compile.ts';

const source = readSchemaSource();
const checked = compile(source, { validators: 'lazy' });
const trusted = compile(source, { validators: 'lazy', checks: 'skip' });

describe('a schema set compiled without its checks', () => {
  it('has the same entities, dictionaries and documents', () => {
    expect(trusted.catalog).toEqual(checked.catalog);
  });

  it('rejects and accepts the same records, with the same messages', () => {
    const plan = checked.catalog.entities.materialTotalDemand;
    const records = [
      {
        projectId: '1',
        title: '主体结构材料计划',
        planDate: '2024-04-01',
        compilerName: '李四',
        details: [{ goodsId: '11', designQty: 100, lossRate: 2, demandQty: 102, budgetPrice: 3.5 }],
      },
      { projectId: 'x', planDate: '2024-02-30', details: [] },
      { title: 'x'.repeat(500), planDate: 'soon', details: [{ designQty: -1 }] },
    ];
    for (const record of records) {
      for (const lang of ['zh', 'en'] as const) {
        expect(validateRecord(trusted.ajv, plan, record, { mode: 'full', lang })).toEqual(
          validateRecord(checked.ajv, plan, record, { mode: 'full', lang }),
        );
      }
    }
    expect(validateRecord(trusted.ajv, plan, records[1], { mode: 'full', lang: 'zh' }).length).toBeGreaterThan(0);
  });
});
