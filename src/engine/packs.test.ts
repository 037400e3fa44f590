// The engine's extension point for packs: what a process without its packs does with their keywords
// and stored texts, and that the installed cost pack gives both their meaning.
import { afterEach, describe, expect, it } from 'vitest';
import { compiledSchemaSet, schemaSource } from '../../tests/support/schema-set.ts';
import { ENGINE_PACKS } from '../packs/engine.ts';
import { parseStoredText, renderStored, storeText, textRef } from './i18n/stored-text.ts';
import { compile } from './model/compile.ts';
import { SchemaSetError } from './model/source.ts';
import { installedPacks, installPacks } from './packs.ts';

const WARNING = storeText({ key: 'warning.unplanned', params: { goods: '中砂' } });

afterEach(() => installPacks(ENGINE_PACKS));

describe('packs', () => {
  it('the cost pack compiles x-cumulative into the model, and its texts render in both languages', () => {
    expect(installedPacks().map((p) => p.name)).toEqual(['cost']);
    const settlement = compiledSchemaSet().catalog.entities.laborMonthlySettlement;
    expect(settlement.extensions['x-cumulative']).toMatchObject({ source: 'laborMonthlySettlement' });
    expect(renderStored(parseStoredText(WARNING)!, 'en')).toBe('中砂 is not in the total demand plan');
  });

  it('a process that forgot its packs cannot compile a set using their keywords, and says which', () => {
    installPacks([]);
    const error = (() => {
      try {
        compile(schemaSource(), { validators: 'lazy', checks: 'skip' });
      } catch (err) {
        return err as SchemaSetError;
      }
    })();
    expect(error).toBeInstanceOf(SchemaSetError);
    expect(error!.issues).toContainEqual(
      expect.objectContaining({
        file: 'schemas/construct/labor-monthly-settlement.schema.json',
        pointer: '/x-cumulative',
        message: 'no installed pack compiles x-cumulative',
      }),
    );
  });

  it("without the pack, a warning's stored key is no text of a catalog: shown as stored, and no new one is made", () => {
    installPacks([]);
    expect(parseStoredText(WARNING)).toBeUndefined();
    expect(() => textRef('warning.unplanned', { goods: '中砂' })).toThrow('unknown message key warning.unplanned');
  });

  it('a pack is installed once', () => {
    expect(() => installPacks([...ENGINE_PACKS, ...ENGINE_PACKS])).toThrow('a pack is listed twice');
  });
});
