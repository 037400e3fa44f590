// processIdOf reads the process id from the BPMN text of a model save, before the text's size is
// checked: it finds what the expression it replaces found, in time linear in the text (issue #18).
import { describe, expect, it } from 'vitest';
import { processIdOf } from './models.ts';
import { prng } from '../../../../tests/support/prng.ts';

/** The expression processIdOf replaces: the reference for what it finds (quadratic: short inputs only). */
const REFERENCE = /<(?:[\w-]+:)?process\b[^>]*?\sid\s*=\s*"([^"]+)"/;

describe('processIdOf', () => {
  it('reads the first process id of a BPMN text', () => {
    expect(
      processIdOf(
        '<?xml version="1.0"?><bpmn:definitions><bpmn:process id="contract_approval" isExecutable="true"></bpmn:process></bpmn:definitions>',
      ),
    ).toBe('contract_approval');
    expect(processIdOf('<process name="x"\n  id = "p1">')).toBe('p1');
    expect(processIdOf('<processes id="no"><process id="">…<process id="yes">')).toBe('yes');
    expect(processIdOf('<bpmn:definitions id="d"/>')).toBeUndefined();
  });

  it('finds what the expression found (random texts of tag characters)', () => {
    const random = prng(18);
    const pieces = ['<', '>', '<process', '<bpmn:process', '<a-b:process', 'es', ' ', '\n', 'id', '=', '"', 'x', ' id="', 'p1', ':', '-'];
    for (let n = 0; n < 50_000; n++) {
      let text = '';
      const length = Math.floor(random() * 14);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      expect(processIdOf(text), JSON.stringify(text)).toBe(REFERENCE.exec(text)?.[1]);
    }
  });

  // the expression took 1.2 s for 72 KB of "<process " and hours for the 5 MB a body may have
  const SHAPES: Record<string, string> = {
    'tags without ">"': '<process '.repeat(500_000),
    'tags without an id': '<process a="b">'.repeat(300_000),
    'ids without a closing quote': `<process${' id="x'.repeat(700_000)}`,
    'empty ids': `<process${' id=""'.repeat(700_000)}`,
    'a prefix that is no prefix': `<${'a'.repeat(4_000_000)}`,
    prefixes: '<a'.repeat(2_000_000),
  };
  // the bound is the test's own timeout: far above a linear read of 4 MB (milliseconds), far below
  // the expression's hours; no wall-clock figure is asserted, so a loaded machine cannot fail it.
  // The answer is the former expression's on the same shape at 1/10,000 of the length
  it.each(Object.entries(SHAPES))('%s: 4 MB read whole, answering as the expression does', (_shape, text) => {
    expect(processIdOf(text)).toBe(REFERENCE.exec(text.slice(0, Math.ceil(text.length / 10_000)))?.[1]);
  });
});
