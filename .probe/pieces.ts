import Ajv2020 from 'ajv/dist/2020.js';
import { createAjv, DIALECT_ID } from '../src/engine/dialect/ajv.ts';
import { idOf } from '../src/engine/model/compile.ts';
import { readSchemaSource } from '../src/server/schema-source.ts';
const src = readSchemaSource();
const T = (label: string, fn: () => void) => { const t = performance.now(); fn(); console.log(label, Math.round(performance.now() - t), 'ms'); };
for (let r = 0; r < 3; r++) {
  let ajv: any;
  T('createAjv', () => { ajv = createAjv(src.meta); });
  const dialect = ajv.getSchema(DIALECT_ID)!;
  const files = Object.keys(src.files).filter((f) => f.endsWith('.schema.json'));
  T('dialect check', () => { for (const f of files) dialect(src.files[f]); });
  T('addSchema', () => { for (const f of files) ajv.addSchema({ ...src.files[f], $id: idOf(f) }); });
  const plain = new (Ajv2020 as any)({ strict: false, validateSchema: false, allErrors: true });
  T('plain addSchema no validate', () => { for (const f of files) plain.addSchema({ ...src.files[f], $id: idOf(f) }); });
  console.log('files', files.length);
}
