// `npm run schemas:check` beyond the JSON schemas, as an implementer adding a document type meets it:
// a small schema set of its own (one document with approval, its BPMN, a menu group and roles in
// seed files) is written to a temporary folder, one mistake is made in it, and the check names the
// file and the place. The real set passes the same check.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSchemaSet } from '../../src/server/reference-checks.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';

const SCHEMA = 'schemas/safety/inspection.schema.json';
const BPMN = 'schemas/workflows/inspection.bpmn';
const MENUS = 'schemas/seed/04-safety-menus.json';
const ROLES = 'schemas/seed/10-roles.json';

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

const seedMenus = () => ({
  kind: 'platform',
  records: [
    { entity: 'menu', data: { parentId: '0', code: 'safety', name: '安全管理', nameEn: 'Safety', path: '/safety', sort: 1, category: 1 } },
  ],
});

const seedRoles = () => ({
  kind: 'platform',
  records: [
    { entity: 'role', name: 'safety', data: { parentId: '0', roleName: '安全员', roleAlias: 'safety_officer', sort: 1 } },
    { entity: 'role', name: 'manager', data: { parentId: '0', roleName: '项目经理', roleAlias: 'project_manager', sort: 2 } },
    { entity: 'param', data: { paramName: '审批金额阈值', paramKey: 'flow.amountThreshold', paramValue: '5000' } },
    { entityMenus: true },
    { grant: { roles: ['@safety', '@manager'], menus: ['safety'] } },
  ],
});

interface Fixture {
  schema: Record<string, any>;
  bpmn: string | undefined;
  menus: ReturnType<typeof seedMenus>;
  roles: { kind: string; records: Record<string, any>[] };
  /** file name of the menu-group seed, relative to schemas/seed */
  menusFile?: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The fixture set after `mutate`, written to a fresh folder and checked. */
async function issuesAfter(mutate: (f: Fixture) => void = () => {}) {
  const fixture: Fixture = { schema: inspection(), bpmn: bpmnWith(AMOUNT_FLOW), menus: seedMenus(), roles: seedRoles() };
  mutate(fixture);
  const root = mkdtempSync(join(tmpdir(), 'zs-schemas-check-'));
  dirs.push(root);
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  for (const dir of ['schemas/meta', 'schemas/common']) cpSync(join(PROJECT_ROOT, dir), join(root, dir), { recursive: true });
  write('entities.manifest.json', JSON.stringify({ dictionaries: [], entities: { inspection: SCHEMA } }));
  write(SCHEMA, JSON.stringify(fixture.schema));
  if (fixture.bpmn !== undefined) write(BPMN, fixture.bpmn);
  write(fixture.menusFile ?? MENUS, JSON.stringify(fixture.menus));
  write(ROLES, JSON.stringify(fixture.roles));
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
    const issues = await issuesAfter((f) => (f.roles.records = f.roles.records.filter((r) => r.entity !== 'param')));
    expect(issues).toEqual([
      expect.objectContaining({ file: BPMN, pointer: 'toManager', message: expect.stringContaining('"amountThreshold"') }),
    ]);
  });

  it('finds a candidate group that is no seeded role alias, at the task', async () => {
    expect(await issuesAfter((f) => (f.bpmn = f.bpmn!.replace('"safety_officer"', '"safety_officer,safety_chief"')))).toEqual([
      { file: BPMN, pointer: 'safetyApprove', message: 'candidate group "safety_chief" is not a role alias any seed file creates' },
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
      { file: SCHEMA, pointer: '/x-entity/menu/parent', message: 'unknown menu group "safty": no seed file creates a menu with that code' },
    ]);
  });

  it('finds a menu group seeded after the entity menus', async () => {
    expect(await issuesAfter((f) => (f.menusFile = 'schemas/seed/50-safety-menus.json'))).toEqual([
      {
        file: SCHEMA,
        pointer: '/x-entity/menu/parent',
        message: `menu group "safety" is seeded in schemas/seed/50-safety-menus.json, after the entity menus (${ROLES}): its seed file must sort before`,
      },
    ]);
  });

  it('finds a grant to a role no seed record is named after, and of a menu nobody creates', async () => {
    const issues = await issuesAfter((f) => {
      f.roles.records = f.roles.records.filter((r) => !r.entityMenus);
      f.roles.records.push({ grant: { roles: ['@safety', '@inspector'], menus: ['safety', 'inspection'] } });
    });
    expect(issues).toEqual([
      { file: ROLES, pointer: '/records/4/grant/roles/1', message: 'unknown role "@inspector": no seed record of a role is named so' },
      {
        file: ROLES,
        pointer: '/records/4/grant/menus/1',
        message: 'unknown menu "inspection": no seed file creates a menu with that code',
      },
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
