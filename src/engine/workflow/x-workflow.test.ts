// The x-workflow keyword in the schema set, and the default processes shipped beside it: what a
// schema author and a tenant administrator would get wrong, refused with file and pointer.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { PROJECT_ROOT } from '../../server/schema-source.ts';
import { issuesAfter } from '../../../tests/schemas/issues-after.ts';
import { compileDefinition } from './definition.ts';

const PLAN = 'schemas/construct/material-total-demand.schema.json';

describe('x-workflow in the dialect', () => {
  it('compiles into the model of the material total demand', () => {
    const { catalog } = compiledSchemaSet();
    expect(catalog.entities.materialTotalDemand.workflow).toEqual({
      prefix: 'materialTotalDemand',
      processKey: 'materialTotalDemand',
      statusField: 'approvalStatus',
      instanceField: 'processInstanceId',
      variables: { amount: 'totalAmount' },
      editable: { costApprove: ['remark'] },
      // nothing set on approval beyond the status (contracts become 履约中: x-workflow.onApproved)
      onApproved: {},
    });
    expect(catalog.entities.project.workflow).toBeUndefined();
  });

  it('refuses unknown keys and a malformed prefix', () => {
    const issues = issuesAfter(({ files }) => {
      files[PLAN]['x-workflow'].prefix = 'Material Demand';
      files[PLAN]['x-workflow'].approvers = ['x'];
    });
    expect(issues.map((i) => `${i.file}#${i.pointer}`)).toEqual(
      expect.arrayContaining([`${PLAN}#/x-workflow/prefix`, `${PLAN}#/x-workflow`]),
    );
  });

  it('refuses a status field that is not a readOnly property, and fields that do not exist', () => {
    const issues = issuesAfter(({ files }) => {
      const wf = files[PLAN]['x-workflow'];
      wf.statusField = 'title';
      wf.instanceField = 'nothing';
      wf.variables = { amount: 'totalAmout' };
      wf.editable = { costApprove: ['remark', 'code', 'ghost'] };
    });
    expect(issues.map((i) => [i.pointer, i.message])).toEqual([
      ['/x-workflow/statusField', 'status field "title" must be a readOnly string (only the workflow sets it)'],
      ['/x-workflow/instanceField', 'instance field "nothing" is not a property'],
      ['/x-workflow/variables/amount', 'variable "amount" reads unknown field "totalAmout"'],
      ['/x-workflow/editable/costApprove/1', 'editable field "code" is readOnly'],
      ['/x-workflow/editable/costApprove/2', 'editable field "ghost" is not a property'],
    ]);
  });
});

describe('the default processes in schemas/workflows', () => {
  const dir = join(PROJECT_ROOT, 'schemas/workflows');
  const files = readdirSync(dir).filter((f) => f.endsWith('.bpmn'));

  it('each belongs to a document type, compiles, and is keyed by its file name', async () => {
    const keys = new Set(Object.values(compiledSchemaSet().catalog.entities).flatMap((m) => (m.workflow ? [m.workflow.processKey] : [])));
    for (const file of files) {
      expect(keys, file).toContain(file.replace(/\.bpmn$/, ''));
      const graph = await compileDefinition(readFileSync(join(dir, file), 'utf8'));
      expect(`${graph.key}.bpmn`).toBe(file);
      expect(graph.nodes.pmApprove.candidateGroups).toEqual({ parts: ['project_manager'] });
      expect(graph.initiator).toBe('applyUser');
    }
  });

  it('every document type with x-workflow has its default process', () => {
    const { catalog } = compiledSchemaSet();
    for (const model of Object.values(catalog.entities)) {
      if (model.workflow) expect(files).toContain(`${model.workflow.processKey}.bpmn`);
    }
  });
});
