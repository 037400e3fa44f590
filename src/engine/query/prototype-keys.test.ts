// Issue #18, hole 7: list parameters named after members of Object.prototype (constructor,
// __proto__, toString …) found those members where a field was looked for, and every list, all,
// export and options route answered 500. They are no field: an unknown filter or sort, refused.
import { describe, expect, it } from 'vitest';
import { compile } from '../model/compile.ts';
import { readSchemaSource } from '../../server/schema-source.ts';
import { findField, parseListParams, QueryError } from './list-params.ts';
import { PROTOTYPE_NAMES } from '../../../tests/support/prototype-names.ts';

const { catalog } = compile(readSchemaSource());

/** The QueryError's key a call throws, or what it answered instead. */
function refusal(fn: () => unknown): string {
  try {
    return `answered ${JSON.stringify(fn())}`;
  } catch (err) {
    if (err instanceof QueryError) return err.key;
    return `threw ${(err as Error).message}`;
  }
}

describe('keys named after members of Object.prototype', () => {
  it('are no field of any entity or detail, and the field maps have no prototype', () => {
    for (const model of Object.values(catalog.entities)) {
      expect(Object.getPrototypeOf(model.fieldMap), model.key).toBeNull();
      for (const detail of model.details) expect(Object.getPrototypeOf(detail.fieldMap), `${model.key}.${detail.name}`).toBeNull();
      for (const name of PROTOTYPE_NAMES) expect(findField(model, name), `${model.key} ${name}`).toBeUndefined();
    }
  });

  it('are refused as unknown filters, with any operator, and as unknown sort columns', () => {
    const project = catalog.entities.project;
    for (const name of PROTOTYPE_NAMES) {
      for (const key of [name, `${name}_like`, `${name}_equal`, `${name}_null`]) {
        // a computed key is an own property, also for __proto__
        expect(
          refusal(() => parseListParams(project, { [key]: 'x' })),
          key,
        ).toBe('unknownFilter');
      }
      expect(
        refusal(() => parseListParams(project, { descs: name })),
        `descs=${name}`,
      ).toBe('unknownSort');
      expect(
        refusal(() => parseListParams(project, { ascs: `name,${name}` })),
        `ascs=name,${name}`,
      ).toBe('unknownSort');
    }
  });
});
