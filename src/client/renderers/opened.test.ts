// The address's fragment says what a document page has open over its list (opened.ts).
import { describe, expect, it } from 'vitest';
import { hashOf, openedFromHash } from './opened.ts';

const everything = () => true;
const viewOnly = (action: string) => action === 'view';

describe('what the fragment opens', () => {
  it('reads back what it wrote: a record’s form, its detail, a new record’s form, nothing', () => {
    for (const opened of [{ mode: 'edit', id: '385180110244798464' }, { mode: 'view', id: '7' }, { mode: 'create' }, null] as const)
      expect(openedFromHash(hashOf(opened), everything)).toEqual(opened);
    expect(hashOf({ mode: 'edit', id: '12' })).toBe('#edit=12');
  });

  it('opens the detail where the user may not edit, and no form for adding', () => {
    expect(openedFromHash('#edit=12', viewOnly)).toEqual({ mode: 'view', id: '12' });
    expect(openedFromHash('#add', viewOnly)).toBeNull();
  });

  it('opens nothing for a fragment it did not write', () => {
    for (const hash of ['', '#', '#edit=', '#edit', '#remove=12', '#edit=1&view=2', '#top'])
      expect(openedFromHash(hash, everything)).toBeNull();
  });
});
