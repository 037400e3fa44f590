// The repository's schema set for tests: read from disk and compiled once per test process, not once
// per test file. In the unit project (isolate: false, see vitest.config.ts) the files a worker runs
// share one process, so the seconds of a full compile are paid once per worker. The cache is kept on
// globalThis: the unit project evaluates the project's modules afresh for each file
// (tests/setup/unit-file.ts), this one included.
//
// compile() leaves its source untouched (tests/schemas/dialect.test.ts checks it); the shared source
// is frozen so that a test that changes it by mistake fails at once instead of changing the set the
// next file sees. A test that provokes a defect works on a copy (structuredClone, as
// tests/schemas/issues-after.ts does).
import type { CompileResult } from '../../src/engine/model/compile.ts';
import { compile } from '../../src/engine/model/compile.ts';
import type { SchemaSource } from '../../src/engine/model/source.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';

const cache = ((globalThis as { [key: symbol]: unknown })[Symbol.for('zhusuan.tests.schemaSet')] ??= {}) as {
  source?: SchemaSource;
  compiled?: CompileResult;
};

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The schema files as the server reads them (readSchemaSource()), read once and frozen. */
export function schemaSource(): SchemaSource {
  return (cache.source ??= deepFreeze(readSchemaSource()));
}

/**
 * The real schema set compiled as the server compiles it (every check, validators generated on first
 * use), once per process. Its catalog and validator are shared: read them, do not change them.
 */
export function compiledSchemaSet(): CompileResult {
  return (cache.compiled ??= compile(schemaSource(), { validators: 'lazy' }));
}
