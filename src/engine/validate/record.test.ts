// Validation messages as an API client receives them: the field named by its label, in zh or en,
// with a JSON pointer to the value.
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { UNCHANGED_SECRET, withoutUnchangedSecrets, withSecretPlaceholders } from '../model/secrets.ts';
import { describePath, validateRecord } from './record.ts';

const { catalog, ajv } = compiledSchemaSet();
const project = catalog.entities.project;
const plan = catalog.entities.materialTotalDemand;
const dict = catalog.entities.dict;

const validProject = {
  name: '滨江花园一期',
  projectType: 'building',
  partyAId: '1',
  targetCost: 1250000.5,
  plannedStartDate: '2024-03-01',
  plannedEndDate: '2025-06-30',
  projectManagerName: '张三',
  projectStatus: 'preparing',
};
const validLine = { goodsId: '11', designQty: 100, lossRate: 2, demandQty: 102, budgetPrice: 3.5 };
const validPlan = { projectId: '1', title: '主体结构材料计划', planDate: '2024-04-01', compilerName: '李四', details: [validLine] };
const validDict = { parentId: '0', code: 'project_type', dictKey: '', dictValue: '工程类别', sort: 1, isSealed: 0 };

const errorsOf = (model: typeof project, record: Record<string, unknown>, lang: 'zh' | 'en' = 'zh', mode: 'full' | 'partial' = 'full') =>
  validateRecord(ajv, model, record, { mode, lang });

describe('valid records', () => {
  it('pass without errors', () => {
    expect(errorsOf(project, validProject)).toEqual([]);
    expect(errorsOf(plan, validPlan)).toEqual([]);
    expect(errorsOf(dict, validDict)).toEqual([]);
  });
});

describe('required, as forms prompt for it', () => {
  const param = catalog.entities.param;
  const tenantPackage = catalog.entities.tenantPackage;
  const prompt = (model: typeof project, record: Record<string, unknown>, lang: 'zh' | 'en' = 'zh') =>
    validateRecord(ajv, model, record, { mode: 'full', lang, prompts: true }).map((e) => e.message);

  it('asks to enter typed values and to select chosen ones', () => {
    expect(prompt(param, {})).toEqual(['请输入参数名称', '请输入参数键名', '请输入参数键值']);
    expect(prompt(dict, { parentId: '0' })).toEqual(
      expect.arrayContaining(['请输入字典编号', '请输入字典名称', '请输入字典排序', '请选择封存']),
    );
    expect(prompt(dict, { ...validDict, parentId: '1123598815738675201' })).toEqual(['请输入字典键值']);
  });

  it('in English, with the label in lower case', () => {
    expect(prompt(tenantPackage, {}, 'en')).toEqual(['please enter package name', 'please select menu']);
  });
});

describe('required', () => {
  it('names the field by its Chinese label', () => {
    const { name: _omit, ...rest } = validProject;
    expect(errorsOf(project, rest)).toEqual([{ path: '/name', message: '项目名称不能为空' }]);
  });

  it('names the field by its English label', () => {
    const { name: _omit, ...rest } = validProject;
    expect(errorsOf(project, rest, 'en')).toEqual([{ path: '/name', message: 'Project name is required' }]);
  });

  it('reports every missing field of an empty record', () => {
    const errors = errorsOf(project, {});
    expect(errors.map((e) => e.path).sort()).toEqual(project.schema.required.map((n: string) => `/${n}`).sort());
    expect(errors).toContainEqual({ path: '/partyAId', message: '建设单位(甲方)不能为空' });
    expect(errors).toContainEqual({ path: '/plannedStartDate', message: '计划开工日期不能为空' });
  });

  it('rejects an empty string where a minimum length is set', () => {
    expect(errorsOf(project, { ...validProject, projectManagerName: '' }, 'en')).toEqual([
      { path: '/projectManagerName', message: 'Project manager must be at least 1 character(s)' },
    ]);
  });
});

describe('maxLength', () => {
  it('names the field and the limit', () => {
    const name = '项'.repeat(101);
    expect(errorsOf(project, { ...validProject, name })).toEqual([{ path: '/name', message: '项目名称不能超过100个字符' }]);
    expect(errorsOf(project, { ...validProject, name }, 'en')).toEqual([
      { path: '/name', message: 'Project name must be at most 100 character(s)' },
    ]);
  });

  it('counts characters, not bytes: 100 Chinese characters are fine', () => {
    expect(errorsOf(project, { ...validProject, name: '项'.repeat(100) })).toEqual([]);
  });
});

describe('format', () => {
  it('rejects an impossible date, naming the expected format', () => {
    expect(errorsOf(project, { ...validProject, plannedStartDate: '2024-02-30' })).toEqual([
      { path: '/plannedStartDate', message: '计划开工日期的格式不正确,应为日期 yyyy-MM-dd' },
    ]);
    expect(errorsOf(project, { ...validProject, plannedStartDate: '2024/03/01' }, 'en')).toEqual([
      { path: '/plannedStartDate', message: 'Planned start date must be a valid date yyyy-MM-dd' },
    ]);
  });

  it('checks patterns', () => {
    expect(errorsOf(project, { ...validProject, partyAId: 'abc' })).toEqual([{ path: '/partyAId', message: '建设单位(甲方)的格式不正确' }]);
  });
});

describe('type', () => {
  it('names the expected type in the caller’s language', () => {
    expect(errorsOf(project, { ...validProject, targetCost: 'abc' })).toEqual([
      { path: '/targetCost', message: '目标成本的类型不正确,应为数字' },
    ]);
    expect(errorsOf(project, { ...validProject, targetCost: 'abc' }, 'en')).toEqual([
      { path: '/targetCost', message: 'Target cost must be a number' },
    ]);
    expect(errorsOf(dict, { ...validDict, sort: 1.5 }, 'en')).toEqual([{ path: '/sort', message: 'Sort order must be an integer' }]);
  });

  it('accepts an exact decimal sent as a numeric string, and refuses other text', () => {
    expect(errorsOf(project, { ...validProject, targetCost: '100.25' }, 'en')).toEqual([]);
    expect(errorsOf(project, { ...validProject, targetCost: '100 元' }, 'en')).toEqual([
      { path: '/targetCost', message: 'Target cost must be a number' },
    ]);
  });
});

describe('ranges and options', () => {
  it('reports minimum with the limit', () => {
    expect(errorsOf(project, { ...validProject, targetCost: -1 })).toEqual([{ path: '/targetCost', message: '目标成本不能小于0' }]);
  });

  it('reports a value outside oneOf once, as not allowed', () => {
    expect(errorsOf(dict, { ...validDict, isSealed: 2 })).toEqual([{ path: '/isSealed', message: '封存的值不在可选范围内' }]);
    expect(errorsOf(dict, { ...validDict, isSealed: 2 }, 'en')).toEqual([
      { path: '/isSealed', message: 'Sealed has a value that is not allowed' },
    ]);
  });
});

describe('detail rows', () => {
  it('points at /details/<index>/<field> and labels the row from 1', () => {
    const { designQty: _omit, ...noDesign } = validLine;
    const record = { ...validPlan, details: [validLine, noDesign] };
    expect(errorsOf(plan, record)).toEqual([{ path: '/details/1/designQty', message: '物资明细第2行 图纸设计量不能为空' }]);
    expect(errorsOf(plan, record, 'en')).toEqual([
      { path: '/details/1/designQty', message: 'Material lines row 2 Design quantity is required' },
    ]);
  });

  it('reports several problems of one row, each at its own path', () => {
    const record = { ...validPlan, details: [{ ...validLine, designQty: -1, budgetPrice: 'x', plannedStartMonth: '2024-13' }] };
    expect(errorsOf(plan, record)).toEqual([
      { path: '/details/0/designQty', message: '物资明细第1行 图纸设计量不能小于0' },
      { path: '/details/0/budgetPrice', message: '物资明细第1行 预算单价的类型不正确,应为数字' },
      { path: '/details/0/plannedStartMonth', message: '物资明细第1行 计划开始月份的格式不正确,应为月份 yyyy-MM' },
    ]);
  });

  it('describePath labels header fields, detail arrays, rows and row fields', () => {
    expect(describePath(plan, '/title', 'zh').label).toBe('计划名称');
    expect(describePath(plan, '/details', 'en').label).toBe('Material lines');
    expect(describePath(plan, '/details/4', 'zh').label).toBe('物资明细第5行');
    expect(describePath(plan, '/details/0/amount', 'en')).toMatchObject({
      label: 'Material lines row 1 Amount',
      field: { name: 'amount' },
    });
  });
});

describe('minRows', () => {
  it('asks for at least one material line', () => {
    expect(errorsOf(plan, { ...validPlan, details: [] })).toEqual([{ path: '/details', message: '物资明细至少需要1行' }]);
    expect(errorsOf(plan, { ...validPlan, details: [] }, 'en')).toEqual([
      { path: '/details', message: 'Material lines needs at least 1 row(s)' },
    ]);
  });

  it('reports missing lines once, as required', () => {
    const { details: _omit, ...noLines } = validPlan;
    expect(errorsOf(plan, noLines)).toEqual([{ path: '/details', message: '物资明细不能为空' }]);
  });
});

describe('requiredIf (x-rules)', () => {
  it('requires dictKey for a child entry (parentId ≠ "0")', () => {
    expect(errorsOf(dict, { ...validDict, parentId: '1123598815738675201' })).toEqual([{ path: '/dictKey', message: '字典键值不能为空' }]);
    expect(errorsOf(dict, { ...validDict, parentId: '1123598815738675201' }, 'en')).toEqual([
      { path: '/dictKey', message: 'Dictionary key is required' },
    ]);
  });

  it('does not require dictKey for a root entry (a numeric 0 is a type error, not a child entry)', () => {
    expect(errorsOf(dict, validDict)).toEqual([]);
    expect(errorsOf(dict, { ...validDict, parentId: 0 as unknown as string })).toEqual([
      { path: '/parentId', message: '上级字典的类型不正确,应为文本' },
    ]);
  });

  it('is satisfied by a value', () => {
    expect(errorsOf(dict, { ...validDict, parentId: '5', dictKey: 'building' })).toEqual([]);
  });

  it('in partial mode (updatePart), does not require a field the client did not send', () => {
    // sealing an entry sends only isSealed; dictKey is unchanged in the stored record
    expect(errorsOf(dict, { isSealed: 1 }, 'zh', 'partial')).toEqual([]);
    expect(errorsOf(dict, { parentId: '5', isSealed: 1 }, 'zh', 'partial')).toEqual([]);
  });

  it('in partial mode, still rejects clearing a field the rule requires', () => {
    expect(errorsOf(dict, { parentId: '5', dictKey: '' }, 'zh', 'partial')).toEqual([{ path: '/dictKey', message: '字典键值不能为空' }]);
  });
});

describe('fields in order (x-rules.atLeast)', () => {
  const contract = catalog.entities.constructionContract;
  const lease = catalog.entities.equipmentLeaseMonthlySettlement;
  const settlement = catalog.entities.laborMonthlySettlement;

  it('refuses an end before its start, naming both fields in the caller’s language', () => {
    const early = { ...validProject, plannedEndDate: '2024-02-29' };
    expect(errorsOf(project, early)).toEqual([{ path: '/plannedEndDate', message: '计划竣工日期不能早于计划开工日期' }]);
    expect(errorsOf(project, early, 'en')).toEqual([
      { path: '/plannedEndDate', message: 'Planned completion date cannot be earlier than Planned start date' },
    ]);
    expect(errorsOf(project, { ...validProject, plannedEndDate: '2024-03-01' })).toEqual([]);
  });

  it('a contract completed before it was started or signed: one message for the completion date', () => {
    const record = { signDate: '2026-12-20', startDate: '2026-12-01', endDate: '2026-01-31' };
    const messages = validateRecord(ajv, contract, record, { mode: 'partial', lang: 'zh', changed: Object.keys(record) });
    expect(messages).toEqual([{ path: '/endDate', message: '合同竣工日期不能早于合同开工日期' }]);
    const afterStart = { ...record, endDate: '2026-12-10' };
    expect(validateRecord(ajv, contract, afterStart, { mode: 'partial', lang: 'zh', changed: ['endDate'] })).toEqual([
      { path: '/endDate', message: '合同竣工日期不能早于签订日期' },
    ]);
  });

  it('is checked when only the start moves past the stored end (updatePart)', () => {
    const stored = { period: '2026-11', startDate: '2026-12-01', endDate: '2026-11-30' };
    expect(validateRecord(ajv, settlement, stored, { mode: 'partial', lang: 'zh', changed: ['startDate'] })).toEqual([
      { path: '/endDate', message: '结算期止不能早于结算期起' },
    ]);
  });

  it('compares the fields of each detail row, and numbers as numbers', () => {
    const rows = [
      { entryDate: '2026-11-01', exitDate: '2026-11-30' },
      { entryDate: '2026-11-10', exitDate: '2026-11-09' },
    ];
    const errors = validateRecord(ajv, lease, { details: rows }, { mode: 'partial', lang: 'zh', changed: ['details'] });
    expect(errors).toContainEqual({ path: '/details/1/exitDate', message: expect.stringMatching(/第2行 退场日期不能早于进场日期$/) });
    expect(errors.filter((e) => e.path.endsWith('/exitDate'))).toHaveLength(1);
    const voucher = catalog.entities.materialReceiveVoucher;
    const weights = { grossWeight: '9.5', tareWeight: 10 };
    expect(validateRecord(ajv, voucher, weights, { mode: 'partial', lang: 'zh', changed: ['grossWeight', 'tareWeight'] })).toEqual([
      { path: '/grossWeight', message: '毛重不能小于皮重' },
    ]);
    expect(
      validateRecord(ajv, voucher, { grossWeight: 10, tareWeight: '9.5' }, { mode: 'partial', lang: 'zh', changed: ['grossWeight'] }),
    ).toEqual([]);
  });

  it('says nothing while either field is empty', () => {
    const { plannedStartDate: _omit, ...rest } = validProject;
    expect(errorsOf(project, { ...rest, plannedEndDate: '2000-01-01' }).map((e) => e.path)).toEqual(['/plannedStartDate']);
  });
});

describe('partial mode', () => {
  it('requires nothing at the top level but still checks what was sent', () => {
    expect(errorsOf(project, { remark: '改' }, 'zh', 'partial')).toEqual([]);
    expect(errorsOf(project, { name: '项'.repeat(101) }, 'zh', 'partial')).toEqual([
      { path: '/name', message: '项目名称不能超过100个字符' },
    ]);
  });

  it('checks detail rows only when the details are sent', () => {
    expect(errorsOf(plan, { title: '改名' }, 'zh', 'partial')).toEqual([]);
    expect(errorsOf(plan, { details: [] }, 'zh', 'partial')).toEqual([{ path: '/details', message: '物资明细至少需要1行' }]);
  });
});

describe('write-only fields sent back as the placeholder of a detail', () => {
  const datasource = catalog.entities.datasource;
  const edited = { id: '1', name: '成本库', host: '127.0.0.1', port: 5432, databaseName: 'cost', username: 'report' };

  it('are "unchanged": no pattern or length check applies to them', () => {
    expect(errorsOf(datasource, { ...edited, url: UNCHANGED_SECRET, password: UNCHANGED_SECRET })).toEqual([]);
    expect(errorsOf(datasource, { ...edited, url: 'oracle://root@127.0.0.1/cost' }).map((e) => e.path)).toEqual(['/url']);
  });

  it('are answered by detail as the placeholder and dropped from what is written', () => {
    const shown = withSecretPlaceholders(datasource, edited);
    expect(shown).toMatchObject({ url: UNCHANGED_SECRET, password: UNCHANGED_SECRET, name: '成本库' });
    expect(withoutUnchangedSecrets(datasource, { ...shown, password: 'new-secret' })).toEqual({ ...edited, password: 'new-secret' });
  });
});
