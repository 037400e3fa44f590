// @vitest-environment happy-dom
// A document's related documents: from a contract, how many settlements (and other documents) refer to
// it, each opening its list filtered to this contract; types the user has no menu for and types with
// none are left out.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { appStore, menusAtom, type MenuNode } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import { renderWithApi } from '../testing/providers.tsx';
import { createFakeHttp } from '../testing/fake-http.ts';
import { EntityDetail } from './EntityDetail.tsx';

const { expenditureContract: contract, subcontractMonthlySettlement: settlement, laborMonthlySettlement: labour } = catalog().entities;
const menuOf = (key: string): MenuNode => {
  const m = catalog().entities[key].menu!;
  return { id: key, parentId: '0', code: m.code, name: key, path: m.path, sort: 0, category: 1 };
};

afterEach(() => {
  cleanup();
  appStore.set(menusAtom, []);
});

describe('the related documents of a contract', () => {
  it('count the settlements that refer to it and open their list filtered to it', async () => {
    const http = createFakeHttp(catalog(), { rows: 6 });
    const the = http.tables.get('expenditureContract')![0];
    const settlements = http.tables.get('subcontractMonthlySettlement')!;
    settlements.forEach((s, i) => (s.expenditureContractCode = i < 2 ? the.code : 'OTHER'));
    http.tables.get('laborMonthlySettlement')!.forEach((s) => (s.expenditureContractCode = 'OTHER'));
    appStore.set(menusAtom, [menuOf('subcontractMonthlySettlement'), menuOf('laborMonthlySettlement')]);
    renderWithApi(<EntityDetail model={contract} id={String(the.id)} />, { http });
    const related = await screen.findByTestId('related-documents', {}, { timeout: 10_000 });
    await waitFor(() => expect(related.textContent).toContain(`${settlement.label.zh} 2`), { timeout: 10_000 });
    expect(related.textContent).not.toContain(labour.label.zh);
    expect(related.querySelector('a')!.getAttribute('href')).toBe(
      `${settlement.menu!.path}?expenditureContractCode=${encodeURIComponent(the.code)}`,
    );
    // nothing of a type without a menu (the monthly demands refer to contracts too)
    expect(related.querySelectorAll('a')).toHaveLength(1);
  });
});
