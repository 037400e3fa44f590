// @vitest-environment happy-dom
// The schema form as a user meets it: the prompts (请输入…, zh and en), x-rules as one types,
// cascades, the detail grid's computed lines and totals, saving, and the server's refusals landing
// on their fields and cells without losing what was typed.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EntityModel, FieldModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { createFakeHttp, type FakeHttp, type FakeHttpOptions } from '../testing/fake-http.ts';
import { EntityForm } from './EntityForm.tsx';
import { TestProviders } from '../testing/providers.tsx';

afterEach(cleanup);

const entities = catalog().entities;

interface Opened {
  http: FakeHttp;
  onDone: ReturnType<typeof vi.fn>;
}

function open(
  model: EntityModel,
  props: { mode?: 'create' | 'edit'; id?: string; initial?: Record<string, unknown> } = {},
  options: { lang?: 'zh' | 'en'; fake?: FakeHttpOptions; http?: FakeHttp } = {},
): Opened {
  const http = options.http ?? createFakeHttp(catalog(), options.fake);
  const onDone = vi.fn();
  render(
    <TestProviders http={http} lang={options.lang}>
      <EntityForm model={model} mode={props.mode ?? 'create'} id={props.id} initial={props.initial} onDone={onDone} />
    </TestProviders>,
  );
  return { http, onDone };
}

/** A validation message under its field (not the same words as a placeholder). */
const message = (text: string) =>
  waitFor(() => expect(screen.getAllByText(text).some((el) => el.closest('.ant-form-item-explain'))).toBe(true));
/** A grid cell's message: short in the cell (its row goes without saying), whole on hover. */
const cellMessage = (short: string, full: string) =>
  waitFor(() => {
    const el = screen.getAllByText(short).find((e) => e.classList.contains('zs-grid-error'));
    expect(el?.getAttribute('title')).toBe(full);
    return el!;
  });
const save = async () => fireEvent.click(await screen.findByRole('button', { name: /保\s*存|Save/ }));
const posts = (http: FakeHttp) => http.calls.filter((c) => c.method === 'post');
const input = (id: string) => document.getElementById(id) as HTMLInputElement;
/** The input of a field once the form has rendered it. */
const appear = (id: string) =>
  waitFor(() => {
    const found = input(id);
    if (!found) throw new Error(`no input #${id}`);
    return found;
  });
const type = (id: string, text: string) => fireEvent.change(input(id), { target: { value: text } });

describe('validation messages', () => {
  it('the parameter form prompts for name, key and value, and sends nothing', async () => {
    const { http } = open(entities.param);
    await save();
    for (const text of ['请输入参数名称', '请输入参数键名', '请输入参数键值']) await message(text);
    expect(posts(http)).toHaveLength(0);
  });

  it('in English', async () => {
    open(entities.param, {}, { lang: 'en' });
    await save();
    for (const text of ['please enter parameter name', 'please enter parameter key', 'please enter parameter value']) await message(text);
  });

  it('a field left empty says so when the user leaves it, the others wait for the save', async () => {
    open(entities.param);
    const name = await appear('root_paramName');
    fireEvent.focus(name);
    fireEvent.blur(name);
    await message('请输入参数名称');
    expect(screen.queryByText('请输入参数键名')).toBeNull();
    type('root_paramName', '账号初始密码');
    fireEvent.blur(name);
    await waitFor(() => expect(screen.queryByText('请输入参数名称')).toBeNull());
  });

  it('the tenant package form asks for its name and menus, in both languages', async () => {
    open(entities.tenantPackage);
    await save();
    await message('请输入产品包名称');
    await message('请选择菜单');
    cleanup();
    open(entities.tenantPackage, {}, { lang: 'en' });
    await save();
    await message('please enter package name');
    await message('please select menu');
  });

  it('a dictionary entry needs its key only under a parent (x-rules requiredIf)', async () => {
    open(entities.dict, { initial: { parentId: '0' } });
    await save();
    await message('请输入字典编号');
    await message('请输入字典名称');
    expect(screen.queryAllByText('请输入字典键值').some((el) => el.closest('.ant-form-item-explain'))).toBe(false);
    cleanup();
    open(entities.dict, { initial: { parentId: '1000001' } });
    await save();
    await message('请输入字典键值');
  });
});

describe('saving', () => {
  it('creates a parameter: posts save, says 新增成功 and hands back the saved record', async () => {
    const { http, onDone } = open(entities.param);
    await appear('root_paramName');
    type('root_paramName', '账号初始密码');
    type('root_paramKey', 'account.initPassword');
    type('root_paramValue', '123456');
    await save();
    expect(await screen.findByText('新增成功')).toBeTruthy();
    const [call] = posts(http);
    expect(call.url).toBe('/api/blade-system/param/save');
    expect(call.body).toMatchObject({ paramName: '账号初始密码', paramKey: 'account.initPassword', paramValue: '123456' });
    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ paramKey: 'account.initPassword', id: expect.any(String) })),
    );
  });

  it('edits a parameter: loads it, posts update with its id, says 更新成功 (Updated successfully in English)', async () => {
    const http = createFakeHttp(catalog());
    const stored = http.tables.get('param')![0];
    const { onDone } = open(entities.param, { mode: 'edit', id: stored.id }, { http, lang: 'en' });
    await waitFor(() => expect(input('root_paramName').value).toBe(stored.paramName));
    expect(http.calls[0]).toMatchObject({ url: '/api/blade-system/param/detail', params: { id: stored.id } });
    type('root_paramValue', 'changed');
    await save();
    expect(await screen.findByText('Updated successfully')).toBeTruthy();
    expect(posts(http)[0]).toMatchObject({
      url: '/api/blade-system/param/update',
      body: { id: stored.id, paramName: stored.paramName, paramValue: 'changed' },
    });
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });

  it('edits a record whose empty columns the server sends as null, without calling them the wrong type', async () => {
    const http = createFakeHttp(catalog());
    const plan = http.tables.get('materialTotalDemand')![0];
    Object.assign(plan, { basis: null, remark: null, previousVersionId: null });
    plan.details[0].workPart = null;
    open(entities.materialTotalDemand, { mode: 'edit', id: plan.id }, { http });
    await appear('root_title');
    await save();
    await waitFor(() => expect(posts(http)).toHaveLength(1));
    expect(screen.queryByText(/类型不正确/)).toBeNull();
    expect(posts(http)[0].body).not.toHaveProperty('basis');
  });

  it("asks for the labels of every row's references with the record, one request per entity, not row by row as they render", async () => {
    const http = createFakeHttp(catalog());
    // 60 rows of 60 goods: more than the grid mounts at once
    const goods = http.tables.get('goodsArchives')!;
    const stocked = goods.length;
    for (let i = stocked; i < 60; i++) goods.push({ ...goods[i % stocked], id: `goods-${i}` });
    const plan = http.tables.get('materialTotalDemand')![0];
    plan.details = goods.map((g, i) => ({ ...plan.details[0], id: `row-${i}`, goodsId: g.id }));
    open(entities.materialTotalDemand, { mode: 'edit', id: plan.id }, { http });
    await appear('root_details_0_designQty');
    const goodsLabels = () => http.calls.filter((c) => c.url === `${entities.goodsArchives.api}/options`);
    await waitFor(() => expect(goodsLabels()).toHaveLength(1));
    expect(new Set(String(goodsLabels()[0].params?.ids).split(','))).toEqual(new Set(goods.map((g) => String(g.id))));
  });

  it('a refused save shows the server’s messages on the field and on the grid cell, and keeps what was typed', async () => {
    const http = createFakeHttp(catalog(), {
      saveErrors: [
        { path: '/title', message: '计划名称 春季计划 已存在' },
        { path: '/details/1/designQty', message: '物资明细第2行 图纸设计量不能小于0' },
      ],
    });
    const plan = http.tables.get('materialTotalDemand')![0];
    const { onDone } = open(entities.materialTotalDemand, { mode: 'edit', id: plan.id }, { http });
    await appear('root_title');
    type('root_title', '春季计划');
    type('root_details_1_designQty', '42');
    await save();
    expect(await screen.findByText('计划名称 春季计划 已存在')).toBeTruthy();
    const cell = await cellMessage('图纸设计量不能小于0', '物资明细第2行 图纸设计量不能小于0');
    expect(cell.closest('[role=row]')?.getAttribute('aria-rowindex')).toBe('3');
    expect(screen.getByText('保存失败,请根据提示修改后重试')).toBeTruthy();
    expect(input('root_title').value).toBe('春季计划');
    expect(input('root_details_1_designQty').value).toBe('42');
    expect(onDone).not.toHaveBeenCalled();
    // editing the cell takes its message away
    type('root_details_1_designQty', '43');
    await waitFor(() => expect(screen.queryByTitle('物资明细第2行 图纸设计量不能小于0')).toBeNull());
  });
});

describe('the detail grid', () => {
  const rowCount = () => screen.getByText(/^共 \d+ 行$/).textContent;

  it('computes the line and the plan total as quantities are typed (100 × (1 + 2%) × 3.5 = 357.00)', async () => {
    open(entities.materialTotalDemand);
    fireEvent.click(await screen.findByRole('button', { name: /新增行/ }));
    await appear('root_details_0_designQty');
    type('root_details_0_designQty', '100');
    type('root_details_0_lossRate', '2');
    type('root_details_0_budgetPrice', '3.5');
    const row = input('root_details_0_designQty').closest('[role=row]') as HTMLElement;
    await waitFor(() => expect(within(row).getByText('357.00')).toBeTruthy());
    expect(within(row).getAllByText('102.0000')).toHaveLength(1); // effective quantity (demand 102 follows its formula)
    expect(input('root_details_0_demandQty').value).toBe('102');
    expect(within(document.querySelector('.zs-grid-totals') as HTMLElement).getByText('357.00')).toBeTruthy();
    expect(input('root_totalAmount').value).toBe('357.00');
    type('root_details_0_designQty', '200');
    await waitFor(() => expect(input('root_totalAmount').value).toBe('714.00'));
  });

  it('adds, copies and deletes rows', async () => {
    open(entities.materialTotalDemand);
    const add = await screen.findByRole('button', { name: /新增行/ });
    fireEvent.click(add);
    fireEvent.click(add);
    expect(rowCount()).toBe('共 2 行');
    await appear('root_details_0_designQty');
    type('root_details_0_designQty', '15');
    fireEvent.click(screen.getByRole('button', { name: '复制 1' }));
    expect(rowCount()).toBe('共 3 行');
    await waitFor(() => expect(input('root_details_1_designQty').value).toBe('15'));
    fireEvent.click(screen.getByRole('button', { name: '删除 3' }));
    expect(rowCount()).toBe('共 2 行');
    fireEvent.click(screen.getByRole('checkbox', { name: '选择第1行' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '选择第2行' }));
    fireEvent.click(screen.getByRole('button', { name: /删除选中行/ }));
    expect(rowCount()).toBe('共 0 行');
  });

  it('checks each row and names the row and column in its message', async () => {
    const { http } = open(entities.materialTotalDemand);
    await save();
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('物资明细至少需要1行'));
    fireEvent.click(await screen.findByRole('button', { name: /新增行/ }));
    // a row added: the grid no longer says it has none
    expect(screen.queryByText('物资明细至少需要1行')).toBeNull();
    await save();
    await cellMessage('请选择物资', '请选择物资明细第1行 物资');
    await cellMessage('请输入图纸设计量', '请输入物资明细第1行 图纸设计量');
    expect(posts(http)).toHaveLength(0);
  });

  it('saves the plan with its rows, the derived values recomputed', async () => {
    const http = createFakeHttp(catalog());
    const plan = http.tables.get('materialTotalDemand')![0];
    open(entities.materialTotalDemand, { mode: 'edit', id: plan.id }, { http });
    await appear('root_details_0_designQty');
    type('root_details_0_designQty', '100');
    await save();
    expect(await screen.findByText('更新成功')).toBeTruthy();
    const body = posts(http)[0].body as { details: Record<string, unknown>[]; totalAmount: number };
    expect(body.details).toHaveLength(2);
    expect(body.details[0]).toMatchObject({ id: plan.details[0].id, designQty: 100 });
    expect(body.totalAmount).toBeGreaterThan(0);
  });
});

describe('rules and cascades', () => {
  it('shows the daily rent only for turnover goods (x-rules visibleIf)', async () => {
    open(entities.goodsArchives);
    await appear('root_name');
    expect(screen.queryByText('参考日租金')).toBeNull();
    fireEvent.click(within(input('root_isTurnover').closest('.ant-form-item') as HTMLElement).getByRole('switch'));
    expect(await screen.findByText('参考日租金')).toBeTruthy();
  });

  it('clears a cascading reference when the field it depends on changes', async () => {
    const model = entities.materialTotalDemand;
    const previous: FieldModel = {
      ...model.fieldMap.previousVersionId,
      readOnly: false,
      ref: { ...model.fieldMap.previousVersionId.ref!, filter: { projectId: { _eq: '$form.projectId' } }, dependsOn: ['projectId'] },
    };
    const cascading: EntityModel = {
      ...model,
      fields: model.fields.map((f) => (f.name === previous.name ? previous : f)),
      fieldMap: { ...model.fieldMap, previousVersionId: previous },
    };
    const http = createFakeHttp(catalog());
    const [p1, p2] = http.tables.get('project')!;
    const earlier = http.tables.get('materialTotalDemand')![0];
    open(cascading, { initial: { projectId: p1.id, previousVersionId: earlier.id } }, { http });
    expect(await screen.findByText(earlier.title)).toBeTruthy();
    fireEvent.mouseDown(input('root_projectId').closest('.ant-select')!);
    fireEvent.click(await screen.findByTitle(p2.name));
    await waitFor(() => expect(screen.queryByText(earlier.title)).toBeNull());
    expect(screen.getByText('请选择上一版本')).toBeTruthy();
  });
});
