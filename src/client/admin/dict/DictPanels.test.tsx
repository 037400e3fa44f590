// @vitest-environment happy-dom
// The dictionary panels: dictionaries listed and searched, the entries of the one clicked, what the
// form opens with (a new entry starts under its dictionary, with its code), delete with 确定将选择
// 数据删除? and 删除成功, and buttons only for those holding dict_add / dict_edit / dict_delete.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { catalog } from '../../renderers/catalog.ts';
import type { Row } from '../../renderers/extensions.ts';
import { appStore, permissionAtom } from '../../state/session.ts';
import { adminFake } from '../testing/fixtures.ts';
import { renderWith } from '../testing/render.tsx';
import { DictionaryPanel, ItemPanel, type DictEdit } from './DictPanels.tsx';

const model = () => catalog().entities.dict;

function Panels({ onEdit }: { onEdit: (edit: DictEdit) => void }) {
  const [selected, setSelected] = useState<Row | null>(null);
  return (
    <>
      <DictionaryPanel model={model()} selected={selected} onSelect={setSelected} onEdit={onEdit} />
      <ItemPanel model={model()} parent={selected} onEdit={onEdit} emptyHint="请在左侧选择一个字典" />
    </>
  );
}

function open(permissions = ['dict_add', 'dict_edit', 'dict_delete']) {
  appStore.set(permissionAtom, Object.fromEntries(permissions.map((p) => [p, true])));
  const fake = adminFake();
  const onEdit = vi.fn();
  renderWith(<Panels onEdit={onEdit} />, fake);
  return { fake, onEdit };
}

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;
const press = (scope: HTMLElement, name: string) =>
  fireEvent.click(within(scope).getByRole('button', { name: new RegExp([...name].join('\\s*')) }));

describe('dictionary panels', () => {
  it('lists the dictionaries and, once one is clicked, its entries', async () => {
    const { fake } = open();
    await screen.findByText('工程类别');
    expect(screen.getByText('请在左侧选择一个字典')).toBeTruthy();
    fireEvent.click(screen.getByText('工程类别'));
    await screen.findByText('市政工程');
    expect(screen.getByText('字典项:工程类别 (project_type)')).toBeTruthy();
    expect(within(rowOf('房建工程')).getByText('是')).toBeTruthy();
    expect(fake.calls.find((c) => c.url.endsWith('/child-list'))!.params).toMatchObject({ parentId: '600' });
  });

  it('searches the dictionaries by code and name', async () => {
    const { fake } = open();
    await screen.findByText('工程类别');
    fireEvent.change(screen.getByLabelText('字典编号'), { target: { value: 'sex' } });
    press(document.body, '搜索');
    await waitFor(() => expect(screen.queryByText('工程类别')).toBeNull());
    expect(screen.getByText('性别')).toBeTruthy();
    expect(fake.calls.filter((c) => c.url.endsWith('/parent-list')).at(-1)!.params).toMatchObject({ code: 'sex' });
  });

  it('opens the form: a new dictionary at the root, a new entry under the chosen one with its code, an entry to edit', async () => {
    const { onEdit } = open();
    await screen.findByText('工程类别');
    press(document.body, '新增字典');
    expect(onEdit).toHaveBeenLastCalledWith({ initial: { parentId: '0' } });
    fireEvent.click(screen.getByText('工程类别'));
    await screen.findByText('市政工程');
    press(document.body, '新增字典项');
    expect(onEdit).toHaveBeenLastCalledWith({ initial: { parentId: '600', code: 'project_type' } });
    press(rowOf('市政工程'), '编辑');
    expect(onEdit.mock.lastCall![0]).toMatchObject({ id: '601', initial: { dictKey: 'municipal' } });
  });

  it('deletes an entry after 确定将选择数据删除? and says 删除成功', async () => {
    const { fake } = open();
    fireEvent.click(await screen.findByText('工程类别'));
    await screen.findByText('房建工程');
    press(rowOf('房建工程'), '删除');
    await screen.findByText('确定将选择数据删除?');
    press(document.querySelector('.ant-modal-confirm') as HTMLElement, '确定');
    await screen.findByText('删除成功');
    expect(fake.calls.find((c) => c.url.endsWith('/remove'))!.params).toEqual({ ids: '602' });
    await waitFor(() => expect(screen.queryByText('房建工程')).toBeNull());
  });

  it('shows no add, edit or delete buttons to a reader', async () => {
    open([]);
    fireEvent.click(await screen.findByText('工程类别'));
    await screen.findByText('市政工程');
    expect(screen.queryByRole('button', { name: /新增/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /编\s*辑|删\s*除/ })).toBeNull();
  });
});
