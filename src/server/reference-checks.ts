// The checks of `npm run schemas:check` that reach beyond the JSON schemas: the default processes in
// schemas/workflows and the reference data declared in schemas/reference (menu groups, roles, grants;
// docs/reference-data.md) with the x-entity.menu.group and x-entity.menu.grants of the schemas. A
// schema set that passes them starts without a submit that finds no process, a condition that reads a
// variable nobody sets, a task offered to a role that does not exist, or a menu, role or grant that
// names one nobody declares. Findings carry the JSON pointer of the keyword (in a schema or a
// reference file); findings inside a BPMN file carry the id of its element
// (`schemas/workflows/x.bpmn#toCost`). The seeds are read for one thing only: the `flow.*`
// parameters a process may read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { compile, STANDARD_ACTIONS } from '../engine/model/compile.ts';
import { pointer, SchemaSetError, type SchemaIssue } from '../engine/model/source.ts';
import type { EntityCatalog, EntityModel } from '../engine/model/types.ts';
import { compileDefinition, type ProcessGraph } from '../engine/workflow/definition.ts';
import { evaluateList, isExpression, type Template, variablesRead } from '../engine/workflow/expression.ts';
import { documentVariableNames } from './modules/flow/steps.ts';
import { readSchemaSource } from './schema-source.ts';

export const WORKFLOWS_DIR = 'schemas/workflows';
export const SEED_DIR = 'schemas/seed';
export const REFERENCE_DIR = 'schemas/reference';
const MENUS_FILE = `${REFERENCE_DIR}/menus.json`;
const ROLES_FILE = `${REFERENCE_DIR}/roles.json`;
const GRANTS_FILE = `${REFERENCE_DIR}/grants.json`;
/** The meta-schema of the reference files, each validated against its definition there. */
const REFERENCE_META = 'schemas/meta/reference.schema.json';

/** Variables the runtime sets itself: the approver's decision and a multi-instance task's counters. */
const RUNTIME_VARIABLES = ['pass', 'loopCounter', 'nrOfInstances', 'nrOfCompletedInstances', 'nrOfActiveInstances'];

/**
 * Everything `npm run schemas:check` finds in the schema set under `root`: the compile's findings
 * (dialect, linter, Ajv), or, once it compiles, those of its processes and reference data.
 */
export async function checkSchemaSet(root: string): Promise<{ issues: SchemaIssue[]; catalog?: EntityCatalog }> {
  try {
    const { catalog } = compile(readSchemaSource(root));
    return { issues: await checkReferences(catalog, root), catalog };
  } catch (err) {
    if (err instanceof SchemaSetError) return { issues: err.issues };
    throw err;
  }
}

/** Every problem of the workflows and reference data of the schema set under `root` (whose catalog compiled). */
export async function checkReferences(catalog: EntityCatalog, root: string): Promise<SchemaIssue[]> {
  const reference = readReference(root);
  const seeds = readSeedParameters(join(root, SEED_DIR));
  const issues = [
    ...reference.issues,
    ...seeds.issues,
    ...checkDeclaredTrees(reference),
    ...checkEntityMenus(catalog, reference),
    ...checkEntityGrants(catalog, reference),
    ...checkGrantsFile(catalog, reference),
  ];
  issues.push(...(await checkProcesses(catalog, root, { roles: declared(reference.roles), flowParameters: seeds.parameters })));
  // documents sharing a process find its problems once
  return [...new Map(issues.map((i) => [JSON.stringify(i), i])).values()];
}

// ---- reference files ----

interface MenuEntry {
  code: string;
  parent?: string;
  name: string;
  en: string;
  retired?: true;
}

interface RoleEntry {
  alias: string;
  parent?: string;
  retired?: true;
}

interface GrantEntry {
  roles: string[];
  menus: string[];
  exclude?: string[];
  retired?: true;
}

/** An entry of a reference file with its JSON pointer there (/menus/3). */
interface At<T> {
  entry: T;
  at: string;
}

interface Reference {
  menus: At<MenuEntry>[];
  roles: At<RoleEntry>[];
  grants: At<GrantEntry>[];
  issues: SchemaIssue[];
}

/** The three reference files, each checked against its meta-schema definition; a missing file declares nothing. */
function readReference(root: string): Reference {
  const reference: Reference = { menus: [], roles: [], grants: [], issues: [] };
  const validate = referenceValidator(root);
  const read = <T>(file: string, key: 'menus' | 'roles' | 'grants', valid: (e: Record<string, unknown>) => boolean): At<T>[] => {
    if (!existsSync(join(root, file))) return [];
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(join(root, file), 'utf8'));
    } catch (err) {
      reference.issues.push({ file, pointer: '', message: `not valid JSON: ${(err as Error).message}` });
      return [];
    }
    reference.issues.push(...validate(file, key, doc));
    const list = (doc as Record<string, unknown> | null)?.[key];
    // the cross-checks read the entries the meta-schema would accept; the others are reported above
    return (Array.isArray(list) ? list : []).flatMap((entry, i) =>
      isObject(entry) && valid(entry) ? [{ entry: entry as T, at: pointer(key, i) }] : [],
    );
  };
  const str = (v: unknown) => typeof v === 'string';
  const strings = (v: unknown) => Array.isArray(v) && v.every(str);
  reference.menus = read<MenuEntry>(MENUS_FILE, 'menus', (e) => str(e.code) && (e.parent === undefined || str(e.parent)));
  reference.roles = read<RoleEntry>(ROLES_FILE, 'roles', (e) => str(e.alias) && (e.parent === undefined || str(e.parent)));
  reference.grants = read<GrantEntry>(
    GRANTS_FILE,
    'grants',
    (e) => strings(e.roles) && strings(e.menus) && (e.exclude === undefined || strings(e.exclude)),
  );
  return reference;
}

/** Validates a reference file against reference.schema.json#/$defs/<key>File; its findings at their JSON pointers. */
function referenceValidator(root: string): (file: string, key: string, doc: unknown) => SchemaIssue[] {
  const metaFile = join(root, REFERENCE_META);
  if (!existsSync(metaFile)) return (file) => [{ file, pointer: '', message: `cannot be checked: ${REFERENCE_META} is missing` }];
  const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addSchema(meta);
  return (file, key, doc) => {
    const validate = ajv.getSchema(`${meta.$id}#/$defs/${key}File`)!;
    if (validate(doc)) return [];
    return (validate.errors ?? []).map((e) => ({ file, pointer: e.instancePath, message: ajvMessage(e) }));
  };
}

function ajvMessage(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  const extra = params.additionalProperty
    ? ` ("${params.additionalProperty}")`
    : params.allowedValue !== undefined
      ? ` (${JSON.stringify(params.allowedValue)})`
      : '';
  return `${e.message ?? e.keyword}${extra}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The keys of the entries not retired: menu codes or role aliases. */
function declared<T extends MenuEntry | RoleEntry>(entries: At<T>[]): Set<string> {
  return new Set(entries.filter(({ entry }) => !entry.retired).map(({ entry }) => keyOf(entry)));
}

const keyOf = (entry: MenuEntry | RoleEntry): string => ('code' in entry ? entry.code : entry.alias);

/** Why `name` is not a usable reference to an entry of `file`, or undefined when it is. */
function unknownIn<T extends MenuEntry | RoleEntry>(entries: At<T>[], name: string, file: string, what: string): string | undefined {
  const entry = entries.find((e) => keyOf(e.entry) === name && !e.entry.retired);
  if (entry) return undefined;
  return entries.some((e) => keyOf(e.entry) === name)
    ? `${what} "${name}" is retired in ${file}`
    : `unknown ${what} "${name}": ${file} declares none`;
}

/** menus.json codes and roles.json aliases are declared once; each parent is declared in its file. */
function checkDeclaredTrees(reference: Reference): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const tree = <T extends MenuEntry | RoleEntry>(file: string, entries: At<T>[], keyName: string, what: string) => {
    const first = new Map<string, string>();
    for (const { entry, at } of entries) {
      const key = keyOf(entry);
      const earlier = first.get(key);
      if (earlier) issues.push({ file, pointer: `${at}/${keyName}`, message: `${what} "${key}" is declared twice (first at ${earlier})` });
      else first.set(key, at);
      const problem = entry.parent === undefined ? undefined : unknownIn(entries, entry.parent, file, `parent ${what}`);
      if (problem) issues.push({ file, pointer: `${at}/parent`, message: problem });
    }
  };
  tree(MENUS_FILE, reference.menus, 'code', 'menu');
  tree(ROLES_FILE, reference.roles, 'alias', 'role');
  return issues;
}

// ---- the schemas' menus ----

/** Menu groups declared by schemas (x-entity.menu.group), by code, with the first schema declaring each. */
function schemaGroups(catalog: EntityCatalog): Map<string, EntityModel> {
  const groups = new Map<string, EntityModel>();
  for (const model of Object.values(catalog.entities))
    if (model.menu?.group && !groups.has(model.menu.group.code)) groups.set(model.menu.group.code, model);
  return groups;
}

/**
 * x-entity.menu.parent names a menu menus.json declares or a group some schema declares; a group is
 * declared alike wherever it is (the first declaration is what the others are compared with), and a
 * document type's menu code is not one menus.json or another document type already has.
 */
function checkEntityMenus(catalog: EntityCatalog, reference: Reference): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const groups = schemaGroups(catalog);
  const menus = declared(reference.menus);
  const codes = new Map<string, string>();
  for (const model of Object.values(catalog.entities)) {
    const menu = model.menu;
    if (!menu) continue;
    const report = (at: string, message: string) => issues.push({ file: model.file, pointer: at, message });
    if (!menus.has(menu.parent) && !groups.has(menu.parent))
      report(
        '/x-entity/menu/parent',
        reference.menus.some((m) => m.entry.code === menu.parent)
          ? `menu group "${menu.parent}" is retired in ${MENUS_FILE}`
          : `unknown menu group "${menu.parent}": neither ${MENUS_FILE} nor any schema's x-entity.menu.group declares it`,
      );
    if (menu.group) {
      const other = sameGroupOtherwise(menu.group, model, groups, reference);
      if (other) report('/x-entity/menu/group', `menu group "${menu.group.code}" is declared otherwise by ${other}`);
    }
    const at = model.schema['x-entity']?.menu?.code === undefined ? '/x-entity/key' : '/x-entity/menu/code';
    if (menus.has(menu.code) || groups.has(menu.code))
      report(at, `menu code "${menu.code}" is taken: ${MENUS_FILE} or a schema's x-entity.menu.group declares it`);
    else if (codes.has(menu.code)) report(at, `menu code "${menu.code}" is the menu code of ${codes.get(menu.code)} too`);
    codes.set(menu.code, model.file);
  }
  return issues;
}

/** Where the group `group` names is declared with another name or English name than here, described; or undefined. */
function sameGroupOtherwise(
  group: NonNullable<NonNullable<EntityModel['menu']>['group']>,
  model: EntityModel,
  groups: Map<string, EntityModel>,
  reference: Reference,
): string | undefined {
  const differs = (other: { name: string; en: string }) => other.name !== group.name || other.en !== group.en;
  const inFile = reference.menus.find((m) => m.entry.code === group.code && !m.entry.retired);
  if (inFile && differs(inFile.entry)) return `${MENUS_FILE} (${inFile.entry.name} / ${inFile.entry.en})`;
  const first = groups.get(group.code);
  if (first && first !== model && differs(first.menu!.group!))
    return `${first.file} (${first.menu!.group!.name} / ${first.menu!.group!.en})`;
  return undefined;
}

/** x-entity.menu.grants names declared roles, and actions that are standard ones or codes of the menu's buttons. */
function checkEntityGrants(catalog: EntityCatalog, reference: Reference): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const model of Object.values(catalog.entities)) {
    const grants = model.schema['x-entity']?.menu?.grants as Record<string, string[]> | undefined;
    if (!model.menu || !grants) continue;
    const buttons = new Set(model.menu.buttons.map((b) => b.code));
    for (const [alias, actions] of Object.entries(grants)) {
      const role = unknownIn(reference.roles, alias, ROLES_FILE, 'role');
      if (role) issues.push({ file: model.file, pointer: pointer('x-entity', 'menu', 'grants', alias), message: role });
      actions.forEach((action, i) => {
        if (!(STANDARD_ACTIONS as readonly string[]).includes(action) && !buttons.has(action))
          issues.push({
            file: model.file,
            pointer: pointer('x-entity', 'menu', 'grants', alias, i),
            message: `"${action}" is neither a standard action (${STANDARD_ACTIONS.join(', ')}) nor the code of one of x-entity.menu.buttons`,
          });
      });
    }
  }
  return issues;
}

// ---- grants.json ----

/**
 * grants.json names declared roles; menus by a code of menus.json, of a document type's menu or of a
 * group a schema declares; and excludes those or a button of a document type's menu.
 */
function checkGrantsFile(catalog: EntityCatalog, reference: Reference): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const menus = new Set([...declared(reference.menus), ...schemaGroups(catalog).keys()]);
  const buttons = new Set<string>();
  for (const model of Object.values(catalog.entities)) {
    if (!model.menu) continue;
    menus.add(model.menu.code);
    for (const action of STANDARD_ACTIONS) buttons.add(`${model.menu.code}_${action}`);
    for (const button of model.menu.buttons) buttons.add(button.code);
  }
  for (const { entry, at } of reference.grants) {
    // a retired grant may name what is gone with it
    if (entry.retired) continue;
    entry.roles.forEach((alias, i) => {
      const problem = unknownIn(reference.roles, alias, ROLES_FILE, 'role');
      if (problem) issues.push({ file: GRANTS_FILE, pointer: `${at}/roles/${i}`, message: problem });
    });
    entry.menus.forEach((code, i) => {
      if (!menus.has(code))
        issues.push({
          file: GRANTS_FILE,
          pointer: `${at}/menus/${i}`,
          message: `unknown menu "${code}": no reference file or schema declares a menu of that code`,
        });
    });
    (entry.exclude ?? []).forEach((code, i) => {
      if (!menus.has(code) && !buttons.has(code))
        issues.push({
          file: GRANTS_FILE,
          pointer: `${at}/exclude/${i}`,
          message: `unknown menu or button "${code}": no reference file or schema declares a menu or button of that code`,
        });
    });
  }
  return issues;
}

// ---- seeds ----

/** The process variables the seeds provide: their `flow.*` parameters (seed data, not reference data). */
function readSeedParameters(dir: string): { parameters: Set<string>; issues: SchemaIssue[] } {
  const parameters = new Set<string>();
  const issues: SchemaIssue[] = [];
  if (!existsSync(dir)) return { parameters, issues };
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = `${SEED_DIR}/${name}`;
    let records: unknown;
    try {
      records = JSON.parse(readFileSync(join(dir, name), 'utf8')).records;
    } catch (err) {
      issues.push({ file, pointer: '', message: `not valid JSON: ${(err as Error).message}` });
      continue;
    }
    if (!Array.isArray(records)) {
      issues.push({ file, pointer: '/records', message: 'a seed file needs a "records" array' });
      continue;
    }
    for (const step of records) {
      const key = isObject(step) && step.entity === 'param' && isObject(step.data) ? step.data.paramKey : undefined;
      if (typeof key === 'string' && key.startsWith('flow.')) parameters.add(key.slice('flow.'.length));
    }
  }
  return { parameters, issues };
}

/** What a process may rely on besides its document: the declared role aliases and the seeded flow.* parameters. */
interface Provided {
  roles: Set<string>;
  flowParameters: Set<string>;
}

// ---- default processes ----

/**
 * Every default process compiles and is named like its file (the file name is the key a tenant's
 * defaults are kept by); each workflow document's process is shipped and reads only what the
 * schema set provides.
 */
async function checkProcesses(catalog: EntityCatalog, root: string, provided: Provided): Promise<SchemaIssue[]> {
  const issues: SchemaIssue[] = [];
  const dir = join(root, WORKFLOWS_DIR);
  const graphs = new Map<string, ProcessGraph>();
  for (const name of existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.bpmn'))
        .sort()
    : []) {
    const file = `${WORKFLOWS_DIR}/${name}`;
    const graph = await compileProcess(root, file);
    const key = name.replace(/\.bpmn$/, '');
    if ('message' in graph) issues.push(graph);
    else if (graph.key !== key)
      issues.push({ file, pointer: '', message: `the process id is "${graph.key}"; the file name says "${key}"` });
    else graphs.set(key, graph);
  }
  for (const model of Object.values(catalog.entities)) {
    const wf = model.workflow;
    if (!wf) continue;
    const file = `${WORKFLOWS_DIR}/${wf.processKey}.bpmn`;
    const at = model.schema['x-workflow']?.processKey ? '/x-workflow/processKey' : '/x-workflow/prefix';
    const graph = graphs.get(wf.processKey);
    if (!existsSync(join(root, file)))
      issues.push({ file: model.file, pointer: at, message: `no default process: ${file} does not exist` });
    else if (graph) issues.push(...checkGraph(graph, file, model, provided), ...checkEditable(graph, file, model));
  }
  return issues;
}

/** x-workflow.editable names user tasks of the document's default process. */
function checkEditable(graph: ProcessGraph, file: string, model: EntityModel): SchemaIssue[] {
  return Object.keys(model.workflow!.editable)
    .filter((task) => graph.nodes[task]?.kind !== 'userTask')
    .map((task) => ({
      file: model.file,
      pointer: pointer('x-workflow', 'editable', task),
      message: `"${task}" is not a user task of ${file}`,
    }));
}

async function compileProcess(root: string, file: string): Promise<ProcessGraph | SchemaIssue> {
  try {
    return await compileDefinition(readFileSync(join(root, file), 'utf8'));
  } catch (err) {
    return { file, pointer: '', message: `not a usable process: ${(err as Error).message}` };
  }
}

/** The expressions of a process read provided variables; its literal candidate groups are declared role aliases. */
function checkGraph(graph: ProcessGraph, file: string, model: EntityModel, { roles, flowParameters }: Provided): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const local = Object.values(graph.nodes).flatMap((n) => (n.multi?.elementVariable ? [n.multi.elementVariable] : []));
  const provided = new Set([
    ...documentVariableNames(model),
    ...flowParameters,
    ...RUNTIME_VARIABLES,
    ...local,
    ...(graph.initiator ? [graph.initiator] : []),
  ]);
  const read = (id: string, what: string, template: Template | undefined) => {
    for (const name of template ? variablesRead(template) : [])
      if (!provided.has(name))
        issues.push({
          file,
          pointer: id,
          message: `${what} reads variable "${name}", which ${model.key} (${model.file}) does not provide: not a header field, an x-workflow variable or a seeded flow.* parameter`,
        });
  };
  for (const flow of Object.values(graph.flows)) read(flow.id, 'the condition', flow.condition);
  for (const node of Object.values(graph.nodes)) {
    read(node.id, 'the assignee', node.assignee);
    read(node.id, 'the candidate users', node.candidateUsers);
    read(node.id, 'the candidate groups', node.candidateGroups);
    read(node.id, 'the multi-instance collection', node.multi?.collection);
    read(node.id, 'the multi-instance cardinality', node.multi?.cardinality);
    read(node.id, 'the completion condition', node.multi?.completion);
    if (node.candidateGroups && !isExpression(node.candidateGroups))
      for (const group of evaluateList(node.candidateGroups, {}))
        if (!roles.has(group))
          issues.push({ file, pointer: node.id, message: `candidate group "${group}" is not a role alias ${ROLES_FILE} declares` });
  }
  return issues;
}
