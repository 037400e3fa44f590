// The client's widgets and displays are typed from ui-names.ts; a schema names them through the
// meta-schemas' enums. The two are one list: a name added to one and not the other fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DISPLAY_TYPES, WIDGET_NAMES } from './ui-names.ts';

const metaSchema = (name: string) => JSON.parse(readFileSync(new URL(`../../../schemas/meta/${name}`, import.meta.url), 'utf8'));

describe('the widget and display names', () => {
  it('are the x-ui meta-schema’s widgets', () => {
    expect(metaSchema('x-ui.schema.json').properties.widget.enum).toEqual([...WIDGET_NAMES]);
  });

  it('are the x-display meta-schema’s types', () => {
    expect(metaSchema('x-display.schema.json').properties.type.enum).toEqual([...DISPLAY_TYPES]);
  });
});
