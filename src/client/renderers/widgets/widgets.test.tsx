// @vitest-environment happy-dom
// Each widget renders its field's value and hands back what the user changed, as the form and
// the detail grid store it (exact decimals, "YYYY-MM" periods, 0/1 switches, comma-joined ids).
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { TestProviders } from '../testing/providers.tsx';
import { createFakeHttp, type FakeHttp } from '../testing/fake-http.ts';
import { FieldControl, widgetNameOf } from './FieldControl.tsx';
import { tagLabels } from './TreeControls.tsx';
import type { Row } from './types.ts';

afterEach(cleanup);

const entities = catalog().entities;
const demandLine = (name: string) => entities.materialTotalDemand.details[0].fieldMap[name];

function Probe({
  field,
  initial,
  values,
  onPick,
}: {
  field: FieldModel;
  initial?: unknown;
  values?: Row;
  onPick?: (r: Row | null) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <FieldControl field={field} value={value} onChange={setValue} values={values} onPick={onPick} id="probe" />
      <output data-testid="value">{value === undefined ? 'undefined' : JSON.stringify(value)}</output>
    </>
  );
}

function show(
  field: FieldModel,
  options: { initial?: unknown; http?: FakeHttp; lang?: 'zh' | 'en'; values?: Row; onPick?: (r: Row | null) => void } = {},
) {
  const http = options.http ?? createFakeHttp(catalog());
  render(
    <TestProviders http={http} lang={options.lang}>
      <Probe field={field} initial={options.initial} values={options.values} onPick={options.onPick} />
    </TestProviders>,
  );
  return http;
}

const value = () => screen.getByTestId('value').textContent;
const type = (input: HTMLElement, text: string) => fireEvent.change(input, { target: { value: text } });

/** Opens an antd select (or tree select) by its input. */
function openSelect(input: HTMLElement) {
  fireEvent.mouseDown(input.closest('.ant-select') ?? input);
}

describe('text widgets', () => {
  it('text: typed text is the value, an emptied input is no value', () => {
    show(entities.param.fieldMap.paramName);
    const input = screen.getByPlaceholderText('请输入参数名称');
    type(input, '账号初始密码');
    expect(value()).toBe('"账号初始密码"');
    type(input, '');
    expect(value()).toBe('undefined');
  });

  it('textarea and password', () => {
    show(entities.param.fieldMap.paramValue, { initial: 'a' });
    type(screen.getByPlaceholderText('请输入参数键值'), 'line one\nline two');
    expect(value()).toBe(JSON.stringify('line one\nline two'));
    cleanup();
    show(entities.user.fieldMap.password);
    const secret = screen.getByPlaceholderText('请输入密码');
    expect(secret.getAttribute('type')).toBe('password');
    type(secret, 's3cret');
    expect(value()).toBe('"s3cret"');
  });

  it('placeholders follow the language', () => {
    show(entities.param.fieldMap.paramName, { lang: 'en' });
    expect(screen.getByPlaceholderText('please enter parameter name')).toBeTruthy();
  });

  it('hidden carries the value without an input to type in', () => {
    const field = { ...entities.param.fieldMap.paramKey, ui: { widget: 'hidden' } };
    show(field, { initial: 'account.initPassword' });
    const input = document.getElementById('probe') as HTMLInputElement;
    expect(input.type).toBe('hidden');
    expect(input.value).toBe('account.initPassword');
  });
});

describe('number and money', () => {
  it('number: a quantity keeps at most its scale (4) of decimals and refuses letters', () => {
    show(demandLine('designQty'));
    const input = screen.getByPlaceholderText('请输入图纸设计量');
    type(input, '12.5');
    expect(value()).toBe('12.5');
    type(input, '12.56789');
    expect(value()).toBe('12.5');
    type(input, '12a');
    expect(value()).toBe('12.5');
    expect((input as HTMLInputElement).value).toBe('12.5');
  });

  it('number: an integer field gives integers', () => {
    show(entities.dict.fieldMap.sort);
    const input = screen.getByPlaceholderText('请输入字典排序');
    type(input, '7.5');
    expect(value()).toBe('undefined');
    type(input, '12');
    expect(value()).toBe('12');
  });

  it('money: thousands separators and its scale when shown, exact digits when typed', () => {
    show(entities.project.fieldMap.targetCost, { initial: 1234567.5 });
    const input = document.getElementById('probe') as HTMLInputElement;
    expect(input.value).toBe('1,234,567.50');
    fireEvent.focus(input);
    expect(input.value).toBe('1234567.5');
    type(input, '999999999999999.99');
    // more digits than a double holds: kept as a decimal string, not rounded by floating point
    expect(value()).toBe('"999999999999999.99"');
    fireEvent.blur(input);
    expect(input.value).toBe('999,999,999,999,999.99');
    fireEvent.focus(input);
    type(input, '1234.5');
    expect(value()).toBe('1234.5');
  });
});

describe('dates', () => {
  it('date: a typed date is kept as YYYY-MM-DD', async () => {
    show(entities.materialTotalDemand.fieldMap.planDate);
    const input = screen.getByPlaceholderText('请选择编制日期');
    fireEvent.mouseDown(input);
    fireEvent.focus(input);
    type(input, '2026-04-18');
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(value()).toBe('"2026-04-18"'));
  });

  it('month: a period is YYYY-MM', async () => {
    show(demandLine('plannedStartMonth'), { initial: '2026-03' });
    const input = document.getElementById('probe') as HTMLInputElement;
    expect(input.value).toBe('2026-03');
    fireEvent.mouseDown(input);
    fireEvent.focus(input);
    type(input, '2026-11');
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(value()).toBe('"2026-11"'));
  });

  it('dateRange: two dates, comma-joined for a text field', () => {
    const field = { ...entities.materialTotalDemand.fieldMap.planDate, ui: { widget: 'dateRange' } };
    expect(widgetNameOf(field)).toBe('dateRange');
    show(field, { initial: '2026-03-01,2026-03-31' });
    const inputs = document.querySelectorAll<HTMLInputElement>('.ant-picker-range input');
    expect([...inputs].map((i) => i.value)).toEqual(['2026-03-01', '2026-03-31']);
    fireEvent.click(document.querySelector('.ant-picker-clear')!);
    expect(value()).toBe('undefined');
  });
});

describe('choices', () => {
  it('select: the schema’s own options, with their values', async () => {
    show(entities.goodsArchives.fieldMap.status, { initial: 'enabled' });
    expect(screen.getByText('启用')).toBeTruthy();
    openSelect(document.getElementById('probe')!);
    fireEvent.click(await screen.findByTitle('停用'));
    expect(value()).toBe('"disabled"');
  });

  it('dict: the dictionary’s items in the user’s language', async () => {
    const http = show(entities.project.fieldMap.projectType, { initial: 'building', lang: 'en' });
    await waitFor(() => expect(http.calls.some((c) => c.url.endsWith('/dictionary') && c.params?.code === 'project_type')).toBe(true));
    openSelect(document.getElementById('probe')!);
    const items = catalog().dictionaries.find((d) => d.code === 'project_type')!.items;
    fireEvent.click(await screen.findByTitle(items[1].value));
    expect(value()).toBe(JSON.stringify(items[1].key));
  });

  it('dict: a message form does not offer 审批消息, which only the system sends, yet shows it where it is the value (issue #25)', async () => {
    show(entities.message.fieldMap.type, { initial: '1' });
    openSelect(document.getElementById('probe')!);
    expect(await screen.findByTitle('部门广播')).toBeTruthy();
    const offered = [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title'));
    expect(offered).toEqual(['普通消息', '部门广播', '角色广播']);
    cleanup();
    // an approval message opened in the form reads as its label
    show(entities.message.fieldMap.type, { initial: '3' });
    expect(await screen.findByTitle('审批消息')).toBeTruthy();
  });

  it('switch: isSealed is 0 or 1', () => {
    show(entities.dict.fieldMap.isSealed, { initial: 0 });
    const toggle = screen.getByRole('switch');
    fireEvent.click(toggle);
    expect(value()).toBe('1');
    fireEvent.click(toggle);
    expect(value()).toBe('0');
  });
});

describe('references', () => {
  it('ref: shows the label of the current record and pages options by keyword, never an inlined list', async () => {
    const http = createFakeHttp(catalog());
    const [first, second] = http.tables.get('project')!;
    show(entities.materialTotalDemand.fieldMap.projectId, { http, initial: first.id });
    expect(await screen.findByText(first.name)).toBeTruthy();
    expect(http.calls.filter((c) => c.url.endsWith('/project/options') && !c.params?.ids)).toHaveLength(0);
    openSelect(document.getElementById('probe')!);
    await waitFor(() =>
      expect(http.calls.some((c) => c.url.endsWith('/project/options') && c.params?.current === 1 && c.params?.size === 20)).toBe(true),
    );
    fireEvent.click(await screen.findByTitle(second.name));
    expect(value()).toBe(JSON.stringify(second.id));
  });

  it('ref: picking a goods hands over the goods record for the copied fields', async () => {
    const http = createFakeHttp(catalog());
    const goods = http.tables.get('goodsArchives')![1];
    const onPick = vi.fn();
    show(demandLine('goodsId'), { http, onPick });
    openSelect(document.getElementById('probe')!);
    // options name the goods by code, name and spec (x-entity optionFields), so that same-named goods differ
    fireEvent.click(await screen.findByTitle([goods.code, goods.name, goods.spec].filter(Boolean).join(' ')));
    await waitFor(() =>
      expect(onPick).toHaveBeenCalledWith(
        expect.objectContaining({ code: goods.code, name: goods.name, spec: goods.spec, unit: goods.unit }),
      ),
    );
    expect(http.calls.some((c) => c.url.endsWith('/goodsArchives/detail') && c.params?.id === goods.id)).toBe(true);
  });

  it('ref: the choices are marked busy until those of the typed text have come (a click cannot land on the old list)', async () => {
    const http = createFakeHttp(catalog());
    const goods = http.tables.get('goodsArchives')!;
    const wanted = goods[1];
    show(demandLine('goodsId'), { http });
    const input = document.getElementById('probe')!;
    openSelect(input);
    await screen.findByTitle([goods[0].code, goods[0].name, goods[0].spec].filter(Boolean).join(' '));
    const popup = () => document.querySelector('.ant-select-dropdown [aria-busy]')!;
    await waitFor(() => expect(popup().getAttribute('aria-busy')).toBe('false'));
    type(input, wanted.code);
    expect(popup().getAttribute('aria-busy'), 'the typed text is not yet searched').toBe('true');
    await waitFor(() => expect(popup().getAttribute('aria-busy')).toBe('false'));
    expect(http.calls.some((c) => c.url.endsWith('/goodsArchives/options') && c.params?.keyword === wanted.code)).toBe(true);
  });

  it('ref: a reference by code (a purchase contract) offers and keeps the code, not the id', async () => {
    const http = createFakeHttp(catalog());
    const contract = http.tables.get('expenditureContract')![0];
    contract.approvalStatus = 'approved';
    show(entities.materialMonthlyDemand.fieldMap.expenditureContractCode, { http, values: { projectId: contract.projectId } });
    openSelect(document.getElementById('probe')!);
    fireEvent.click(await screen.findByTitle(`${contract.code} ${contract.name}`));
    expect(value()).toBe(JSON.stringify(contract.code));
    expect(http.calls.some((c) => c.url.endsWith('/expenditureContract/options') && c.params?.valueField === 'code')).toBe(true);
  });

  it('ref: a cascading picker waits for the field it depends on, then filters by it', async () => {
    const http = createFakeHttp(catalog());
    const project = http.tables.get('project')![0];
    const previous: FieldModel = {
      ...entities.materialTotalDemand.fieldMap.previousVersionId,
      readOnly: false,
      ref: {
        ...entities.materialTotalDemand.fieldMap.previousVersionId.ref!,
        filter: { projectId: { _eq: '$form.projectId' } },
        dependsOn: ['projectId'],
      },
    };
    show(previous, { http, values: {} });
    expect((document.getElementById('probe') as HTMLInputElement).disabled).toBe(true);
    cleanup();
    show(previous, { http, values: { projectId: project.id } });
    openSelect(document.getElementById('probe')!);
    await waitFor(() =>
      expect(http.calls.some((c) => c.url.endsWith('/materialTotalDemand/options') && c.params?.projectId_equal === project.id)).toBe(true),
    );
  });

  it('treeSelect: the top level is 顶级 and a level loads when opened', async () => {
    const http = show(entities.dict.fieldMap.parentId, { initial: '0' });
    expect(screen.getByText('顶级')).toBeTruthy();
    openSelect(document.getElementById('probe')!);
    const switcher = await waitFor(() => {
      const found = document.querySelector('.ant-select-tree-switcher:not(.ant-select-tree-switcher-noop)');
      expect(found).toBeTruthy();
      return found!;
    });
    fireEvent.click(switcher);
    await waitFor(() => expect(http.calls.some((c) => c.url.endsWith('/dict/lazy-tree') && c.params?.parentId === '0')).toBe(true));
    const child = http.tables.get('dict')!.find((d) => String(d.parentId) === '0')!;
    fireEvent.click(await screen.findByTitle(child.dictValue));
    expect(value()).toBe(JSON.stringify(child.id));
  });

  it("treeSelect: a search finds a node on a level not yet opened (the data-scope form's menu, issue #25)", async () => {
    const http = createFakeHttp(catalog());
    const menus = http.tables.get('menu')!;
    // a menu under another: the lazy tree shows it only after the levels above it are opened
    const deep = menus.find((m) => m.parentId !== undefined && String(m.parentId) !== '0')!;
    show(entities.dataScope.fieldMap.menuId, { http });
    openSelect(document.getElementById('probe')!);
    expect(screen.queryByTitle(deep.name)).toBeNull();
    type(document.getElementById('probe')!, deep.name);
    await waitFor(() => expect(http.calls.some((c) => c.url.endsWith('/menu/tree'))).toBe(true));
    fireEvent.click(await screen.findByTitle(deep.name));
    expect(value()).toBe(JSON.stringify(deep.id));
  });

  it('treeMultiSelect: checked menus are one comma-joined value', async () => {
    const http = createFakeHttp(catalog());
    const menus = http.tables.get('menu')!;
    show(entities.tenantPackage.fieldMap.menuId, { http, initial: menus[0].id });
    const url = (entities.tenantPackage.fieldMap.menuId.ui!.options as { url: string }).url;
    await waitFor(() => expect(http.calls.map((c) => c.url)).toContain(url));
    openSelect(document.getElementById('probe')!);
    // checking a menu checks the menus under it (and above it) too, and every checked one is sent
    const parent = menus.find((m, i) => i > 0 && menus.some((c) => String(c.parentId) === String(m.id)))!;
    const children = menus.filter((c) => String(c.parentId) === String(parent.id)).map((c) => c.id);
    fireEvent.click(await screen.findByTitle(parent.name));
    expect(value()).toMatch(/^"\d+(,\d+)+"$/);
    expect(value()!.replace(/"/g, '').split(',').sort()).toEqual([menus[0].id, parent.id, ...children].sort());
    // what is stored is shown as it is: unchecking the menu takes its submenus with it, nothing else
    fireEvent.click(screen.getAllByTitle(parent.name).find((el) => el.closest('.ant-select-tree-treenode'))!);
    expect(value()).toBe(JSON.stringify(menus[0].id));
  });

  it('treeMultiSelect: a tag of a button says whose it is, 项目信息 · 新增 (issue #25)', async () => {
    const http = createFakeHttp(catalog());
    const menu = (id: string, parentId: string, name: string, category: number) => ({ id, parentId, name, code: id, category, sort: 1 });
    http.tables.set('menu', [
      menu('11', '0', '基础资料', 1),
      menu('12', '11', '项目信息', 1),
      menu('13', '12', '新增', 2),
      menu('14', '11', '甲方单位', 1),
      menu('15', '14', '新增', 2),
      menu('16', '14', '导入', 2),
    ]);
    show(entities.tenantPackage.fieldMap.menuId, { http, initial: '16,12,15,13' });
    // the tags that fit show first (happy-dom lays out none: the first two are measured away), the
    // rest are named by the "+ N" tag's title, as their tags would name them
    await waitFor(() => {
      const rest = document.querySelector('.ant-select-selection-item [title]');
      expect(rest?.getAttribute('title')).toBe('甲方单位 · 新增、项目信息 · 新增');
    });
  });

  it('tagLabels: only a title other nodes share is qualified by its parent', () => {
    const node = (id: string, pId: string | null, title: string) => ({ id, pId, value: id, title });
    const labels = tagLabels([
      node('1', null, '基础资料'),
      node('2', '1', '新增'),
      node('3', null, '合同'),
      node('4', '3', '新增'),
      node('5', '3', '导入'),
    ]);
    expect([...labels.values()]).toEqual(['基础资料', '基础资料 · 新增', '合同', '合同 · 新增', '导入']);
  });

  it("treeMultiSelect: a user's department and role are exactly the ones picked, not the ones above them (issue #25)", async () => {
    const http = createFakeHttp(catalog());
    // a node under a top-level one: the tree opens with the top level shown
    const underTop = (table: string) => {
      const rows = http.tables.get(table)!;
      const top = (r: Row) => !r.parentId || String(r.parentId) === '0';
      return rows.find((r) => rows.some((p) => top(p) && String(p.id) === String(r.parentId)))!;
    };
    for (const [field, table, label] of [
      ['deptId', 'dept', 'deptName'],
      ['roleId', 'role', 'roleName'],
    ] as const) {
      const child = underTop(table);
      show(entities.user.fieldMap[field], { http });
      openSelect(document.getElementById('probe')!);
      const parentNode = await waitFor(() => {
        const found = document.getElementById(`test-id-${child.parentId}`) ?? document.querySelector(`[id$="-${child.parentId}"]`);
        expect(found).toBeTruthy();
        return found!;
      });
      fireEvent.click(parentNode.querySelector('.ant-select-tree-switcher')!);
      fireEvent.click(await screen.findByTitle(String(child[label])));
      // the picker used to add its parent (and theirs): a department data scope then covered them all
      expect(value()).toBe(JSON.stringify(String(child.id)));
      cleanup();
    }
  });
});

describe('uploads', () => {
  const file = (name: string, type: string, size: number) => new File([new Uint8Array(size)], name, { type });

  it('image: only JPG/PNG up to 500 KB is sent, with a clear message otherwise', async () => {
    const http = show(entities.user.fieldMap.avatar);
    const choose = async (f: File) => {
      const input = document.querySelector('input[type=file]') as HTMLInputElement;
      await act(async () => fireEvent.change(input, { target: { files: [f] } }));
    };
    await choose(file('a.gif', 'image/gif', 10));
    expect(await screen.findByText('头像只能是 JPG/PNG 格式')).toBeTruthy();
    await choose(file('big.png', 'image/png', 600 * 1024));
    expect(await screen.findByText('头像大小不能超过 500KB')).toBeTruthy();
    expect(http.calls.some((c) => c.url.endsWith('put-file'))).toBe(false);
    await choose(file('me.png', 'image/png', 1000));
    await waitFor(() => expect(value()).not.toBe('undefined'));
    expect(http.calls.filter((c) => c.url === '/api/blade-resource/oss/endpoint/put-file')).toHaveLength(1);
  });

  it('upload: a file of any type is sent and its link kept', async () => {
    const field = { ...entities.materialTotalDemand.fieldMap.basis, ui: { widget: 'upload' } };
    show(field, { lang: 'en' });
    expect(screen.getByRole('button', { name: /Upload/ })).toBeTruthy();
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    await act(async () => fireEvent.change(input, { target: { files: [file('review.pdf', 'application/pdf', 2000)] } }));
    await waitFor(() => expect(value()).not.toBe('undefined'));
    expect(screen.getAllByText(/review\.pdf/).length).toBeGreaterThan(0);
  });
});
