import { compile } from '../src/engine/model/compile.ts';
import { readSchemaSource } from '../src/server/schema-source.ts';
const src = readSchemaSource();
for (let i = 0; i < 4; i++) {
  for (const checks of ['all', 'skip'] as const) {
    const t = performance.now();
    compile(src, { validators: 'lazy', checks });
    console.log(checks, Math.round(performance.now() - t), 'ms');
  }
}
