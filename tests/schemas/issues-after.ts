// The schema dialect's refusals, as tests provoke them: a defect made in memory on a copy of the real
// schema files must stop the set from compiling, with the file and JSON pointer named.
import { expect } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { SchemaSetError, type SchemaIssue, type SchemaSource } from '../../src/engine/model/source.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';

const source = readSchemaSource();

/**
 * Compiles a copy of the real source after `mutate`, and returns the issues it was refused with. The
 * copy is compiled as the server compiles at start-up (validators generated on first use): generating
 * every entity's validator up front tripled the time of these tests, and for every defect they
 * provoke the issues were the same. A defect that only the generation of the validators finds (Ajv's
 * strict mode, as `schemas:check` runs it) is looked for with a second, full compile.
 */
export function issuesAfter(mutate: (s: SchemaSource & { files: Record<string, any> }) => void): SchemaIssue[] {
  const copy = structuredClone(source);
  mutate(copy);
  try {
    compile(copy, { validators: 'lazy' });
    compile(copy);
  } catch (err) {
    expect(err).toBeInstanceOf(SchemaSetError);
    const issues = (err as SchemaSetError).issues;
    expect(issues.length).toBeGreaterThan(0);
    // what the author reads on start-up: file#pointer: message
    for (const i of issues) expect((err as Error).message).toContain(`${i.file}#${i.pointer}: ${i.message}`);
    return issues;
  }
  throw new Error('the schema set compiled, but a defect was expected');
}
