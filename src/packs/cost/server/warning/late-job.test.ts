// The late-settlement check reads its documents' fields by role (x-entity.fieldRoles, references by
// the role of what they refer to): a field renamed in a schema is followed, never read by its old name.
import { describe, expect, it } from 'vitest';
import { compile } from '../../../../engine/model/compile.ts';
import type { SchemaSource } from '../../../../engine/model/source.ts';
import type { EntityCatalog } from '../../../../engine/model/types.ts';
import { compiledSchemaSet, schemaSource } from '../../../../../tests/support/schema-set.ts';
import { lateSettlementDocuments } from './late-job.ts';

const CHECK = 'schemas/construct/material-check.schema.json';
const MATERIAL_SETTLEMENT = 'schemas/construct/material-monthly-settlement.schema.json';

/** The set with a field renamed in some files: wherever they name it (properties, layout, list, roles, copies). */
function renamed(files: readonly string[], from: string, to: string) {
  const source = structuredClone(schemaSource()) as SchemaSource & { files: Record<string, unknown> };
  for (const file of files) source.files[file] = JSON.parse(JSON.stringify(source.files[file]).replaceAll(`"${from}"`, `"${to}"`));
  return compile(source, { validators: 'lazy' }).catalog;
}

const activity = (catalog: EntityCatalog) => lateSettlementDocuments(catalog).activities.find((a) => a.model.key === 'materialCheck')!;

describe('the late-settlement check binds its fields by role', () => {
  it("reads the product's documents by the fields their schemas name", () => {
    const documents = lateSettlementDocuments(compiledSchemaSet().catalog);
    const check = activity(compiledSchemaSet().catalog);
    expect([check.contract.name, check.month.name]).toEqual(['expenditureContractCode', 'checkDate']);
    expect(documents.contract.projectRef.name).toBe('projectId');
    expect(documents.settlements.length).toBeGreaterThan(0);
  });

  it('follows a renamed month and a renamed contract reference', () => {
    // the monthly material settlement copies the check's date onto its lines
    expect(activity(renamed([CHECK, MATERIAL_SETTLEMENT], 'checkDate', 'receivedOn')).month.name).toBe('receivedOn');
    expect(activity(renamed([CHECK], 'expenditureContractCode', 'contractNo')).contract.name).toBe('contractNo');
  });
});
