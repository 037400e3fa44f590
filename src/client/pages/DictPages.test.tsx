// @vitest-environment happy-dom
// The dictionary pages with the dictionary form: a new entry opens under the chosen
// dictionary with its code, the form asks for what is missing in the prompts' words (请输入…), and a save says
// 新增成功 and shows the entry.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminFake } from '../admin/testing/fixtures.ts';
import { renderWith } from '../admin/testing/render.tsx';
import { appStore, permissionAtom } from '../state/session.ts';
import { DictHorizontal, DictVertical } from './DictPages.tsx';

const press = (scope: HTMLElement, name: string) =>
  fireEvent.click(within(scope).getByRole('button', { name: new RegExp(`${[...name].join('\\s*')}\\s*$`) }));
const dialog = () => screen.getByRole('dialog');

function open(page = <DictHorizontal />) {
  appStore.set(permissionAtom, { dict_add: true, dict_edit: true, dict_delete: true });
  const fake = adminFake();
  renderWith(page, fake);
  return fake;
}

describe('dictionary pages', () => {
  it('a new dictionary: prompts for what is missing', async () => {
    open();
    press(document.body, '新增字典');
    await waitFor(() => expect(dialog()).toBeTruthy());
    await within(dialog()).findByText('新增系统字典');
    press(dialog(), '保存');
    for (const message of ['请输入字典编号', '请输入字典名称', '请输入字典排序'])
      expect(await within(dialog()).findByText(message)).toBeTruthy();
    expect(within(dialog()).queryByText('请输入字典键值')).toBeNull();
  });

  it('a new entry starts under the chosen dictionary, asks for its key, and is saved with 新增成功', async () => {
    const fake = open();
    fireEvent.click(await screen.findByText('工程类别'));
    await screen.findByText('市政工程');
    press(document.body, '新增字典项');
    await within(dialog()).findByText('新增系统字典');
    expect((within(dialog()).getByLabelText('字典编号') as HTMLInputElement).value).toBe('project_type');
    press(dialog(), '保存');
    expect(await within(dialog()).findByText('请输入字典键值')).toBeTruthy();
    fireEvent.change(within(dialog()).getByLabelText('字典键值'), { target: { value: 'road' } });
    fireEvent.change(within(dialog()).getByLabelText('字典名称'), { target: { value: '道路工程' } });
    fireEvent.change(within(dialog()).getByLabelText('字典排序'), { target: { value: '3' } });
    press(dialog(), '保存');
    await screen.findByText('新增成功');
    const saved = fake.calls.find((c) => c.method === 'post' && /\/(save|submit)$/.test(c.url))!;
    expect(saved.body).toMatchObject({ parentId: '600', code: 'project_type', dictKey: 'road', dictValue: '道路工程' });
    expect(await screen.findByText('道路工程')).toBeTruthy();
  });

  it('the dictionary dialog is 880 wide, on the vertical page too', async () => {
    open(<DictVertical />);
    press(document.body, '新增字典');
    await within(dialog()).findByText('新增系统字典');
    expect(document.querySelector<HTMLElement>('.ant-modal')!.style.width).toBe('880px');
  });
});
