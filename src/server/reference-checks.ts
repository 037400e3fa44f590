// The checks of `npm run schemas:check` that reach beyond the JSON schemas: the default processes in
// schemas/workflows and the reference data in schemas/seed. A schema set that passes them starts
// without a submit that finds no process, a condition that reads a variable nobody sets, a task
// offered to a role that does not exist, or a seed that dies half-way on a menu group or role it
// names but nobody declares. Schema findings carry the JSON pointer of the keyword; findings inside
// a BPMN file carry the id of its element (`schemas/workflows/x.bpmn#toCost`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../engine/model/compile.ts';
import { pointer, SchemaSetError, type SchemaIssue } from '../engine/model/source.ts';
import type { EntityCatalog, EntityModel } from '../engine/model/types.ts';
import { compileDefinition, type ProcessGraph } from '../engine/workflow/definition.ts';
import { evaluateList, isExpression, type Template, variablesRead } from '../engine/workflow/expression.ts';
import { documentVariableNames } from './modules/flow/steps.ts';
import { readSchemaSource } from './schema-source.ts';

export const WORKFLOWS_DIR = 'schemas/workflows';
export const SEED_DIR = 'schemas/seed';

/** Variables the runtime sets itself: the approver's decision and a multi-instance task's counters. */
const RUNTIME_VARIABLES = ['pass', 'loopCounter', 'nrOfInstances', 'nrOfCompletedInstances', 'nrOfActiveInstances'];

/**
 * Everything `npm run schemas:check` finds in the schema set under `root`: the compile's findings
 * (dialect, linter, Ajv), or, once it compiles, those of its processes and seeds.
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

/** Every problem of the workflows and seeds of the schema set under `root` (whose catalog compiled). */
export async function checkReferences(catalog: EntityCatalog, root: string): Promise<SchemaIssue[]> {
  const seeds = readSeeds(join(root, SEED_DIR));
  const issues = [...seeds.issues, ...checkMenus(catalog, seeds), ...checkGrants(seeds)];
  issues.push(...(await checkProcesses(catalog, root, seeds)));
  // documents sharing a process find its problems once
  return [...new Map(issues.map((i) => [JSON.stringify(i), i])).values()];
}

// ---- seeds ----

interface SeedStepAt {
  file: string;
  at: string;
  step: Record<string, unknown>;
  /** Position in seeding order (files by name, then steps). */
  order: number;
}

interface Seeds {
  steps: SeedStepAt[];
  issues: SchemaIssue[];
  /** Role aliases the seeds create. */
  roleAliases: Set<string>;
  /** Process variables from the seeded `flow.*` parameters. */
  flowParameters: Set<string>;
}

function readSeeds(dir: string): Seeds {
  const seeds: Seeds = { steps: [], issues: [], roleAliases: new Set(), flowParameters: new Set() };
  if (!existsSync(dir)) return seeds;
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = `${SEED_DIR}/${name}`;
    let records: unknown;
    try {
      records = JSON.parse(readFileSync(join(dir, name), 'utf8')).records;
    } catch (err) {
      seeds.issues.push({ file, pointer: '', message: `not valid JSON: ${(err as Error).message}` });
      continue;
    }
    if (!Array.isArray(records)) {
      seeds.issues.push({ file, pointer: '/records', message: 'a seed file needs a "records" array' });
      continue;
    }
    records.forEach((step, i) => seeds.steps.push({ file, at: pointer('records', i), step, order: seeds.steps.length }));
  }
  for (const { step } of seeds.steps) {
    const data = (step.data ?? {}) as Record<string, unknown>;
    if (step.entity === 'role' && typeof data.roleAlias === 'string') seeds.roleAliases.add(data.roleAlias);
    if (step.entity === 'param' && typeof data.paramKey === 'string' && data.paramKey.startsWith('flow.'))
      seeds.flowParameters.add(data.paramKey.slice('flow.'.length));
  }
  return seeds;
}

/** Menu codes the seeds create, with the position of the first step creating each. */
function seededMenus(seeds: Seeds): Map<string, SeedStepAt> {
  const menus = new Map<string, SeedStepAt>();
  for (const s of seeds.steps) {
    const code = (s.step.data as { code?: unknown } | undefined)?.code;
    if (s.step.entity === 'menu' && typeof code === 'string' && !menus.has(code)) menus.set(code, s);
  }
  return menus;
}

/** x-entity.menu.parent names a menu group seeded before the step that creates the entities' menus. */
function checkMenus(catalog: EntityCatalog, seeds: Seeds): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const groups = seededMenus(seeds);
  const entityMenus = seeds.steps.find((s) => s.step.entityMenus === true);
  for (const model of Object.values(catalog.entities)) {
    if (!model.menu) continue;
    const group = groups.get(model.menu.parent);
    const report = (message: string) => issues.push({ file: model.file, pointer: '/x-entity/menu/parent', message });
    if (!group) report(`unknown menu group "${model.menu.parent}": no seed file creates a menu with that code`);
    else if (entityMenus && group.order > entityMenus.order)
      report(
        `menu group "${model.menu.parent}" is seeded in ${group.file}, after the entity menus (${entityMenus.file}): its seed file must sort before`,
      );
  }
  return issues;
}

/** Grants and top menus name roles the seeds create and menus that exist once seeded. */
function checkGrants(seeds: Seeds): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const named = new Map<string, string>();
  for (const { step } of seeds.steps) if (typeof step.name === 'string') named.set(step.name, String(step.entity));
  const entityMenus = seeds.steps.some((s) => s.step.entityMenus === true);
  const menus = seededMenus(seeds);
  for (const { file, at, step } of seeds.steps) {
    const grant = step.grant as { roles?: unknown; menus?: unknown } | undefined;
    if (!grant) continue;
    (Array.isArray(grant.roles) ? grant.roles : []).forEach((role, i) => {
      const name = typeof role === 'string' && role.startsWith('@') ? role.slice(1) : undefined;
      if (!name || named.get(name) !== 'role')
        issues.push({ file, pointer: `${at}/grant/roles/${i}`, message: `unknown role "${role}": no seed record of a role is named so` });
    });
    (Array.isArray(grant.menus) ? grant.menus : []).forEach((menu, i) => {
      // an entity's own menu is created by the entityMenus step (its code is not in the seed files)
      if (typeof menu !== 'string' || (!menus.has(menu) && !entityMenus))
        issues.push({
          file,
          pointer: `${at}/grant/menus/${i}`,
          message: `unknown menu "${menu}": no seed file creates a menu with that code`,
        });
    });
  }
  return issues;
}

// ---- default processes ----

/**
 * Every default process compiles and is named like its file (the file name is the key a tenant's
 * defaults are kept by); each workflow document's process is shipped and reads only what the
 * schema set provides.
 */
async function checkProcesses(catalog: EntityCatalog, root: string, seeds: Seeds): Promise<SchemaIssue[]> {
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
    else if (graph) issues.push(...checkGraph(graph, file, model, seeds), ...checkEditable(graph, file, model));
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

/** The expressions of a process read provided variables; its literal candidate groups are seeded roles. */
function checkGraph(graph: ProcessGraph, file: string, model: EntityModel, seeds: Seeds): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const local = Object.values(graph.nodes).flatMap((n) => (n.multi?.elementVariable ? [n.multi.elementVariable] : []));
  const provided = new Set([
    ...documentVariableNames(model),
    ...seeds.flowParameters,
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
        if (!seeds.roleAliases.has(group))
          issues.push({ file, pointer: node.id, message: `candidate group "${group}" is not a role alias any seed file creates` });
  }
  return issues;
}
