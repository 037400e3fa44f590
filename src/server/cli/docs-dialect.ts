// `npm run docs:dialect`: writes docs/dialect-reference.md from the meta-schemas of schemas/meta.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, readSchemaSource } from '../schema-source.ts';
import { dialectReference } from './dialect-reference.ts';

const file = join(PROJECT_ROOT, 'docs/dialect-reference.md');
writeFileSync(file, dialectReference(readSchemaSource().meta));
console.log(`written ${file}`);
