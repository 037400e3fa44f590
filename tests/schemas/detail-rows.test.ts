// The read-only rows entity the engine derives for a document's detail table (src/engine/model/detail-rows.ts): what
// names a row where a picker or a detail dialog shows it.
import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/client/renderers/catalog.ts';

const rowsEntities = () => Object.values(catalog().entities).filter((m) => m.derived);

describe('derived detail rows entities', () => {
  it('name a row by its first text of its own, not by a date or a number before it', () => {
    // machine usage records: the work date comes first, the work content names the row
    expect(catalog().entities.equipmentUsageRecordsDetail.titleField).toBe('workContent');
    for (const model of rowsEntities()) {
      const own = model.layout.sections[1].fields.map((name) => model.fieldMap[name]);
      const text = own.find((f) => f.kind === 'string' && !f.dict && !f.ref && !f.options);
      if (text) expect(model.titleField, model.key).toBe(text.name);
      expect(model.optionFields, model.key).toEqual([model.titleField ?? 'id']);
    }
  });
});
