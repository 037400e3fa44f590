// `npm run schemas:check` beyond the JSON schemas, as an implementer adding a document type meets it:
// a small schema set of its own (a document with approval, its BPMN, another document, a menu group,
// roles and grants in schemas/reference, a flow.* parameter in a seed file) is written to a temporary folder, one mistake is made in it, and the check names the
// file and the place. The real set passes the same check.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSchemaSet } from '../../src/server/reference-checks.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';

const SCHEMA = 'schemas/safety/inspection.schema.json';
const BPMN = 'schemas/workflows/inspection.bpmn';
const HAZARD = 'schemas/safety/hazard.schema.json';
const MENUS = 'schemas/reference/menus.json';
const ROLES = 'schemas/reference/roles.json';
const GRANTS = 'schemas/reference/grants.json';
const SEED = 'schemas/seed/40-workflow.json';

const inspection = (): Record<string, any> => ({
  $schema: 'https://zhusuan.dev/schemas/meta/dialect.schema.json',
  title: '安全检查记录',
  'x-i18n': { title: 'Safety inspection' },
  type: 'object',
  'x-entity': { key: 'inspection', table: 'zs_inspection', api: '/api/safety/inspection', menu: { parent: 'safety' } },
  'x-workflow': { prefix: 'inspection', statusField: 'approvalStatus', variables: { amount: 'penalty' } },
  properties: {
    subject: { type: 'string', maxLength: 100, title: '检查事项', 'x-i18n': { title: 'Subject' } },
    penalty: { $ref: '../common/types.schema.json#/$defs/money', title: '罚款金额', 'x-i18n': { title: 'Penalty' } },
    approvalStatus: { $ref: '../common/workflow.schema.json#/$defs/approvalStatus' },
  },
});

const bpmnWith = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" targetNamespace="https://zhusuan.dev/workflows">
  <process id="inspection" name="安全检查审批" isExecutable="true">
    <startEvent id="start" flowable:initiator="applyUser"/>
    <userTask id="safetyApprove" name="安全员审批" flowable:candidateGroups="safety_officer"/>
    <exclusiveGateway id="amountGateway" default="toEnd"/>
    <userTask id="managerApprove" name="项目经理审批" flowable:candidateGroups="project_manager"/>
    <endEvent id="end"/>
    <sequenceFlow id="toSafety" sourceRef="start" targetRef="safetyApprove"/>
    <sequenceFlow id="toGateway" sourceRef="safetyApprove" targetRef="amountGateway"/>
    ${body}
    <sequenceFlow id="toEnd" sourceRef="amountGateway" targetRef="end"/>
    <sequenceFlow id="managerToEnd" sourceRef="managerApprove" targetRef="end"/>
  </process>
</definitions>
`;

const AMOUNT_FLOW = `<sequenceFlow id="toManager" sourceRef="amountGateway" targetRef="managerApprove">
      <conditionExpression xsi:type="tFormalExpression"><![CDATA[\${amount > amountThreshold}]]></conditionExpression>
    </sequenceFlow>`;

const referenceMenus = () => ({
  menus: [{ code: 'safety', name: '安全管理', en: 'Safety', path: '/safety', icon: 'safety', sort: 20 } as Record<string, unknown>],
});

const referenceRoles = () => ({
  roles: [
    { alias: 'safety_officer', name: '安全员', sort: 1 } as Record<string, unknown>,
    { alias: 'project_manager', name: '项目经理', sort: 2 } as Record<string, unknown>,
  ],
});

const referenceGrants = () => ({
  grants: [{ roles: ['safety_officer', 'project_manager'], menus: ['safety'], exclude: ['inspection_delete'] } as Record<string, unknown>],
});

const seedParameters = () => ({
  kind: 'platform',
  records: [{ entity: 'param', data: { paramName: '审批金额阈值', paramKey: 'flow.amountThreshold', paramValue: '5000' } }],
});

/** A second document type of the set, without approval, in the same menu group. */
const hazard = (): Record<string, any> => ({
  $schema: 'https://zhusuan.dev/schemas/meta/dialect.schema.json',
  title: '安全隐患',
  'x-i18n': { title: 'Safety hazard' },
  type: 'object',
  'x-entity': { key: 'hazard', table: 'zs_hazard', api: '/api/safety/hazard', menu: { parent: 'safety' } },
  properties: { subject: { type: 'string', maxLength: 100, title: '隐患', 'x-i18n': { title: 'Hazard' } } },
});

interface Fixture {
  schema: Record<string, any>;
  hazard: Record<string, any>;
  bpmn: string | undefined;
  menus: ReturnType<typeof referenceMenus>;
  roles: ReturnType<typeof referenceRoles>;
  grants: ReturnType<typeof referenceGrants>;
  seed: { kind: string; records: Record<string, any>[] };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The fixture set after `mutate`, written to a fresh folder and checked. */
async function issuesAfter(mutate: (f: Fixture) => void = () => {}) {
  const fixture: Fixture = {
    schema: inspection(),
    hazard: hazard(),
    bpmn: bpmnWith(AMOUNT_FLOW),
    menus: referenceMenus(),
    roles: referenceRoles(),
    grants: referenceGrants(),
    seed: seedParameters(),
  };
  mutate(fixture);
  const root = mkdtempSync(join(tmpdir(), 'zs-schemas-check-'));
  dirs.push(root);
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  for (const dir of ['schemas/meta', 'schemas/common']) cpSync(join(PROJECT_ROOT, dir), join(root, dir), { recursive: true });
  write('entities.manifest.json', JSON.stringify({ dictionaries: [], entities: { inspection: SCHEMA, hazard: HAZARD } }));
  write(SCHEMA, JSON.stringify(fixture.schema));
  write(HAZARD, JSON.stringify(fixture.hazard));
  if (fixture.bpmn !== undefined) write(BPMN, fixture.bpmn);
  write(MENUS, JSON.stringify(fixture.menus));
  write(ROLES, JSON.stringify(fixture.roles));
  write(GRANTS, JSON.stringify(fixture.grants));
  write(SEED, JSON.stringify(fixture.seed));
  return (await checkSchemaSet(root)).issues;
}

describe('npm run schemas:check', () => {
  it('passes the real schema set', async () => {
    expect((await checkSchemaSet(PROJECT_ROOT)).issues).toEqual([]);
  });

  it('passes a document type with its process, menu group and roles', async () => {
    expect(await issuesAfter()).toEqual([]);
  });

  it('finds a missing BPMN for a workflow prefix, at the prefix', async () => {
    expect(await issuesAfter((f) => (f.bpmn = undefined))).toEqual([
      { file: SCHEMA, pointer: '/x-workflow/prefix', message: 'no default process: schemas/workflows/inspection.bpmn does not exist' },
    ]);
  });

  it('finds a missing BPMN for an x-workflow.processKey, at the key', async () => {
    expect(await issuesAfter((f) => (f.schema['x-workflow'].processKey = 'safetyInspection'))).toEqual([
      {
        file: SCHEMA,
        pointer: '/x-workflow/processKey',
        message: 'no default process: schemas/workflows/safetyInspection.bpmn does not exist',
      },
    ]);
  });

  it('finds a BPMN that does not parse', async () => {
    const issues = await issuesAfter((f) => (f.bpmn = f.bpmn!.replace('</process>', '')));
    expect(issues).toEqual([{ file: BPMN, pointer: '', message: expect.stringMatching(/^not a usable process: Not a valid BPMN file: /) }]);
  });

  it('finds a BPMN whose process is named otherwise than its file', async () => {
    expect(await issuesAfter((f) => (f.bpmn = f.bpmn!.replace('process id="inspection"', 'process id="safetyCheck"')))).toEqual([
      { file: BPMN, pointer: '', message: 'the process id is "safetyCheck"; the file name says "inspection"' },
    ]);
  });

  it('finds a condition reading a variable the document does not provide, at the flow', async () => {
    const issues = await issuesAfter((f) => {
      f.schema['x-workflow'].variables = {};
    });
    expect(issues).toEqual([
      {
        file: BPMN,
        pointer: 'toManager',
        message: `the condition reads variable "amount", which inspection (${SCHEMA}) does not provide: not a header field, an x-workflow variable or a seeded flow.* parameter`,
      },
    ]);
  });

  it('counts the header fields, the variables, the flow.* parameters and the initiator as provided', async () => {
    const condition = '${penalty > amountThreshold && amount > 0 && applyUser != null && pass}';
    expect(await issuesAfter((f) => (f.bpmn = bpmnWith(AMOUNT_FLOW.replace('${amount > amountThreshold}', condition))))).toEqual([]);
    // without the seeded parameter, amountThreshold is nobody's
    const issues = await issuesAfter((f) => (f.seed.records = []));
    expect(issues).toEqual([
      expect.objectContaining({ file: BPMN, pointer: 'toManager', message: expect.stringContaining('"amountThreshold"') }),
    ]);
  });

  it('finds a candidate group that is no declared role alias, at the task', async () => {
    expect(await issuesAfter((f) => (f.bpmn = f.bpmn!.replace('"safety_officer"', '"safety_officer,safety_chief"')))).toEqual([
      { file: BPMN, pointer: 'safetyApprove', message: `candidate group "safety_chief" is not a role alias ${ROLES} declares` },
    ]);
  });

  it('finds an editable task the process does not have', async () => {
    expect(await issuesAfter((f) => (f.schema['x-workflow'].editable = { costApprove: ['subject'] }))).toEqual([
      {
        file: SCHEMA,
        pointer: '/x-workflow/editable/costApprove',
        message: '"costApprove" is not a user task of schemas/workflows/inspection.bpmn',
      },
    ]);
  });

  it('finds an unknown menu group', async () => {
    expect(await issuesAfter((f) => (f.schema['x-entity'].menu.parent = 'safty'))).toEqual([
      {
        file: SCHEMA,
        pointer: '/x-entity/menu/parent',
        message: `unknown menu group "safty": neither ${MENUS} nor any schema's x-entity.menu.group declares it`,
      },
    ]);
  });

  it('takes a menu group a schema declares (x-entity.menu.group) as known, to its entries and to grants.json', async () => {
    const issues = await issuesAfter((f) => {
      f.menus.menus = [];
      f.schema['x-entity'].menu.group = { name: '安全管理', en: 'Safety', icon: 'safety', sort: 20 };
    });
    expect(issues).toEqual([]);
  });

  it('finds two schemas declaring one menu group differently, once', async () => {
    const issues = await issuesAfter((f) => {
      f.menus.menus = [];
      f.schema['x-entity'].menu.group = { name: '安全管理', en: 'Safety' };
      f.hazard['x-entity'].menu.group = { name: '安全', en: 'Safety' };
    });
    expect(issues).toEqual([
      {
        file: HAZARD,
        pointer: '/x-entity/menu/group',
        message: `menu group "safety" is declared otherwise by ${SCHEMA} (安全管理 / Safety)`,
      },
    ]);
  });

  it("finds an x-entity.menu.grants role nobody declares, and an action that is not one of the menu's", async () => {
    const issues = await issuesAfter((f) => {
      f.schema['x-entity'].menu.buttons = [{ code: 'inspection_close', name: '关闭', en: 'Close' }];
      f.schema['x-entity'].menu.grants = { safety_officer: ['view', 'add', 'inspection_close', 'approve'], inspector: ['view'] };
    });
    expect(issues).toEqual([
      {
        file: SCHEMA,
        pointer: '/x-entity/menu/grants/safety_officer/3',
        message: '"approve" is neither a standard action (add, edit, delete, view, export) nor the code of one of x-entity.menu.buttons',
      },
      { file: SCHEMA, pointer: '/x-entity/menu/grants/inspector', message: `unknown role "inspector": ${ROLES} declares none` },
    ]);
  });

  it('finds a grant in grants.json of an unknown role, menu or excluded button', async () => {
    const issues = await issuesAfter((f) => {
      f.grants.grants.push({
        roles: ['safety_officer', 'inspector'],
        menus: ['safety', 'inspection', 'hazards'],
        exclude: ['hazard_edit', 'inspection_approve'],
      });
    });
    expect(issues).toEqual([
      { file: GRANTS, pointer: '/grants/1/roles/1', message: `unknown role "inspector": ${ROLES} declares none` },
      {
        file: GRANTS,
        pointer: '/grants/1/menus/2',
        message: 'unknown menu "hazards": no reference file or schema declares a menu of that code',
      },
      {
        file: GRANTS,
        pointer: '/grants/1/exclude/1',
        message: 'unknown menu or button "inspection_approve": no reference file or schema declares a menu or button of that code',
      },
    ]);
  });

  it('finds a parent role or menu its file does not declare', async () => {
    const issues = await issuesAfter((f) => {
      f.roles.roles[0].parent = 'safety';
      f.menus.menus.push({ code: 'safety_board', parent: 'safty', name: '安全看板', en: 'Safety board', path: '/safety/board' });
    });
    expect(issues).toEqual([
      { file: MENUS, pointer: '/menus/1/parent', message: `unknown parent menu "safty": ${MENUS} declares none` },
      { file: ROLES, pointer: '/roles/0/parent', message: `unknown parent role "safety": ${ROLES} declares none` },
    ]);
  });

  it("finds a menu code or role alias declared twice, and a document's menu code that is taken", async () => {
    const issues = await issuesAfter((f) => {
      f.menus.menus.push({ ...f.menus.menus[0], name: '安全' });
      f.roles.roles.push({ alias: 'project_manager', name: '项目负责人' });
      f.hazard['x-entity'].menu.code = 'safety';
    });
    expect(issues).toEqual([
      { file: MENUS, pointer: '/menus/1/code', message: 'menu "safety" is declared twice (first at /menus/0)' },
      { file: ROLES, pointer: '/roles/2/alias', message: 'role "project_manager" is declared twice (first at /roles/1)' },
      {
        file: HAZARD,
        pointer: '/x-entity/menu/code',
        message: `menu code "safety" is taken: ${MENUS} or a schema's x-entity.menu.group declares it`,
      },
    ]);
  });

  it('takes a retired role as gone: a candidate group naming it is found', async () => {
    const issues = await issuesAfter((f) => (f.roles.roles[1].retired = true));
    expect(issues).toEqual([
      { file: GRANTS, pointer: '/grants/0/roles/1', message: `role "project_manager" is retired in ${ROLES}` },
      { file: BPMN, pointer: 'managerApprove', message: `candidate group "project_manager" is not a role alias ${ROLES} declares` },
    ]);
  });

  it('checks the reference files against their meta-schema, at the JSON pointer', async () => {
    const issues = await issuesAfter((f) => {
      delete f.menus.menus[0].en;
      f.roles.roles[0].label = 'Safety officer';
      f.grants.grants[0].only = 'buttons';
    });
    expect(issues).toEqual([
      { file: MENUS, pointer: '/menus/0', message: "must have required property 'en'" },
      { file: ROLES, pointer: '/roles/0', message: 'must NOT have additional properties ("label")' },
      { file: GRANTS, pointer: '/grants/0/only', message: 'must be equal to constant ("menus")' },
    ]);
    expect(await issuesAfter((f) => (f.grants = { grant: [] } as never))).toEqual([
      { file: GRANTS, pointer: '', message: "must have required property 'grants'" },
      { file: GRANTS, pointer: '', message: 'must NOT have additional properties ("grant")' },
    ]);
  });

  it('reports an unknown keyword once, and a $ref to a missing file at its property', async () => {
    const issues = await issuesAfter((f) => (f.schema['x-workflw'] = {}));
    expect(issues).toEqual([{ file: SCHEMA, pointer: '/x-workflw', message: 'unknown keyword "x-workflw"' }]);
    expect(await issuesAfter((f) => (f.schema.properties.subject = { $ref: '../common/texts.schema.json#/$defs/subject' }))).toEqual([
      {
        file: SCHEMA,
        pointer: '/properties/subject',
        message:
          '$ref "../common/texts.schema.json#/$defs/subject" names a file that is not in the schema set: schemas/common/texts.schema.json',
      },
    ]);
  });
});
