// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntityModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { renderWithApi } from '../testing/providers.tsx';
import type { ActionDialogProps } from '../extensions.ts';
import type { RendererRegistry } from '../registry.ts';
import { createFakeHttp, type FakeHttp } from '../testing/fake-http.ts';
import { EntityList } from './EntityList.tsx';

const demand = catalog().entities.materialTotalDemand;
const ALL = ['add', 'edit', 'delete', 'view', 'export'];
const grants = (code: string, actions = ALL) => Object.fromEntries(actions.map((a) => [`${code}_${a}`, true]));

afterEach(cleanup);
beforeEach(() => localStorage.clear());

/** A fake API whose demands refer to different projects (the generated ones all share one). */
function demandApi(rows = 40): FakeHttp {
  const http = createFakeHttp(catalog(), { rows });
  const projects = http.tables.get('project')!;
  http.tables.get('materialTotalDemand')!.forEach((r, i) => {
    r.projectId = projects[i % 7].id;
    r.totalAmount = 1234567.5 + i;
  });
  return http;
}

function showList(
  model: EntityModel,
  http: FakeHttp,
  options: {
    permissions?: Record<string, boolean>;
    lang?: 'zh' | 'en';
    onOpen?: () => void;
    tenantId?: string;
    registry?: RendererRegistry;
  } = {},
) {
  const onOpen = vi.fn(options.onOpen);
  const view = renderWithApi(<EntityList model={model} onOpen={onOpen} />, {
    http,
    permissions: options.permissions ?? grants(model.menu!.code),
    lang: options.lang,
    tenantId: options.tenantId,
    registry: options.registry,
  });
  return { ...view, onOpen, list: () => screen.getByTestId('entity-list') };
}

const idle = () => waitFor(() => expect(screen.getByTestId('entity-list').getAttribute('aria-busy')).toBe('false'));
const bodyRows = () => [...document.querySelectorAll('tbody tr.zs-grid-row')] as HTMLElement[];
const listCalls = (http: FakeHttp) => http.calls.filter((c) => c.url.endsWith('/list'));
const lastList = (http: FakeHttp) => listCalls(http).at(-1)!.params as Record<string, unknown>;
const toolbarButton = (name: RegExp | string) =>
  within(document.querySelector('.zs-list-toolbar') as HTMLElement).getByRole('button', { name });
const headerTexts = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent);
/** The list's headers for these x-list columns: the selection box, the labels, 操作. */
const headersOf = (fields: string[]) => ['', ...fields.map((f) => demand.fieldMap[f].label.zh), '操作'];
const demandColumns = demand.list.columns.map((c) => c.field);

describe('the list of a document type', () => {
  it('shows the x-list columns with labels, money and dates as a person reads them; one label request per referenced entity', async () => {
    const http = demandApi();
    const model = { ...demand, list: { ...demand.list, pageSize: 30 } };
    showList(model, http);
    await idle();
    expect(headerTexts()).toEqual(headersOf(demandColumns));
    expect(headerTexts().slice(0, 5)).toEqual(['', '计划编号', '计划名称', '项目', '编制日期']);
    expect(bodyRows()).toHaveLength(30);
    const projects = http.tables.get('project')!;
    const first = http.tables.get('materialTotalDemand')![0];
    await waitFor(() => expect(bodyRows()[0].textContent).toContain(projects[0].name));
    expect(bodyRows()[0].textContent).toContain('1,234,567.50');
    expect(bodyRows()[0].textContent).toContain(first.createTime.slice(0, 10).replace(/-/g, '/'));
    const labelCalls = http.calls.filter((c) => c.url.endsWith('/options'));
    expect(labelCalls.map((c) => c.url)).toEqual(['/api/construct/project/options']);
    expect(String(labelCalls[0].params?.ids).split(',')).toHaveLength(7);
  });

  it('pages through the list: the page and the page size go to the server, with the total shown', async () => {
    const http = demandApi(45);
    showList(demand, http);
    await idle();
    expect(lastList(http)).toMatchObject({ current: 1, size: 10 });
    expect(screen.getByText('共 45 条')).toBeTruthy();
    fireEvent.click(screen.getByTitle('2'));
    await idle();
    expect(lastList(http)).toMatchObject({ current: 2, size: 10 });
    expect(bodyRows()[0].textContent).toContain('CLZJH20260011');

    fireEvent.mouseDown(document.querySelector('.ant-pagination-options .ant-select')!);
    fireEvent.click(await screen.findByText('30 条/页'));
    await idle();
    expect(lastList(http)).toMatchObject({ current: 1, size: 30 });
    expect(bodyRows()).toHaveLength(30);
    const sizes = [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
    expect(sizes).toEqual(['10 条/页', '30 条/页', '50 条/页', '100 条/页', '200 条/页']);
  });

  it('a click on a sortable header sorts by it (ascs, then descs); references do not sort', async () => {
    const http = demandApi();
    showList(demand, http);
    await idle();
    expect(lastList(http)).not.toHaveProperty('ascs');
    expect(lastList(http)).not.toHaveProperty('descs');
    const header = (name: string) => [...document.querySelectorAll('thead th')].find((th) => th.textContent === name) as HTMLElement;
    expect(header('创建时间').getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(within(header('计划名称')).getByRole('button'));
    await idle();
    expect(lastList(http)).toMatchObject({ ascs: 'title', current: 1 });
    expect(header('计划名称').getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header('计划名称')).getByRole('button'));
    await idle();
    expect(lastList(http)).toMatchObject({ descs: 'title' });
    expect(lastList(http)).not.toHaveProperty('ascs');
    expect(within(header('项目')).queryByRole('button')).toBeNull();
  });

  it('the search bar sends its filters (contains-searches without a suffix) and reset clears them', async () => {
    const http = demandApi();
    showList(demand, http);
    await idle();
    const wanted = http.tables.get('materialTotalDemand')![3];
    fireEvent.change(screen.getByPlaceholderText('计划编号'), { target: { value: wanted.code } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lastList(http)).toMatchObject({ code: wanted.code, current: 1 }));
    await idle();
    expect(bodyRows()).toHaveLength(1);
    expect(bodyRows()[0].textContent).toContain(wanted.title);
    fireEvent.click(screen.getByRole('button', { name: /清\s*空/ }));
    await waitFor(() => expect(lastList(http)).not.toHaveProperty('code'));
  });

  it('a multi-select dictionary filter sends every chosen value, comma-joined (any of them matches)', async () => {
    const subcontractor = catalog().entities.subcontractor;
    const http = createFakeHttp(catalog(), { rows: 5 });
    showList(subcontractor, http);
    await idle();
    const select = screen.getByText('单位类别', { selector: '.ant-select-placeholder' }).closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(select.querySelector('.ant-select-selector, .ant-select-content') ?? select);
    fireEvent.click(await screen.findByText('劳务分包', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(await screen.findByText('机械设备租赁商', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() =>
      expect(listCalls(http).map((c) => c.params)).toContainEqual(
        expect.objectContaining({ subcontractorTypes_equal: 'labor,equipment_lessor' }),
      ),
    );
  });

  it('a reference filter pages through the referenced entity and sends the chosen record', async () => {
    const http = demandApi();
    showList(demand, http);
    await idle();
    const project = http.tables.get('project')![2];
    const select = screen.getByText('项目', { selector: '.ant-select-placeholder' }).closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(select.querySelector('.ant-select-selector, .ant-select-content') ?? select);
    fireEvent.click(await screen.findByText(project.name, { selector: '.ant-select-item-option-content' }));
    expect(http.calls.find((c) => c.url === '/api/construct/project/options' && !c.params?.ids)?.params).toMatchObject({
      current: 1,
      size: 20,
    });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lastList(http)).toMatchObject({ projectId_equal: project.id }));
  });

  it('batch delete: a warning without a selection, then 确定将选择数据删除?, the remove request, 删除成功 and a fresh list', async () => {
    const http = demandApi();
    showList(demand, http);
    await idle();
    fireEvent.click(toolbarButton(/删\s*除/));
    expect(await screen.findByText('请选择至少一条数据')).toBeTruthy();
    expect(http.calls.some((c) => c.url.endsWith('/remove'))).toBe(false);

    const rows = http.tables.get('materialTotalDemand')!;
    const [a, b] = [rows[0].id, rows[1].id];
    fireEvent.click(within(bodyRows()[0]).getByRole('checkbox'));
    fireEvent.click(within(bodyRows()[1]).getByRole('checkbox'));
    expect(screen.getByText('已选择 2 项')).toBeTruthy();
    const listsBefore = listCalls(http).length;
    fireEvent.click(toolbarButton(/删\s*除/));
    const confirm = await screen.findByText('确定将选择数据删除?');
    fireEvent.click(
      within(confirm.closest('.ant-modal-container, .ant-modal-content, .ant-modal')! as HTMLElement).getByRole('button', {
        name: /确\s*定/,
      }),
    );
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(http.calls.find((c) => c.url.endsWith('/remove'))).toMatchObject({
      method: 'post',
      url: '/api/construct/materialTotalDemand/remove',
      params: { ids: `${a},${b}` },
    });
    await waitFor(() => expect(listCalls(http).length).toBeGreaterThan(listsBefore));
    await idle();
    expect(bodyRows().map((r) => r.getAttribute('data-row-id'))).not.toContain(a);
    expect(screen.queryByText(/已选择/)).toBeNull();
  });

  it('a row delete asks the same question and removes that row only', async () => {
    const http = demandApi();
    showList(demand, http);
    await idle();
    const id = bodyRows()[2].getAttribute('data-row-id');
    fireEvent.click(within(bodyRows()[2]).getByRole('button', { name: /删\s*除/ }));
    fireEvent.click(
      within((await screen.findByText('确定将选择数据删除?')).closest('.ant-modal')! as HTMLElement).getByRole('button', {
        name: /确\s*定/,
      }),
    );
    await screen.findByText('删除成功');
    expect(http.calls.find((c) => c.url.endsWith('/remove'))?.params).toEqual({ ids: id });
  });

  it('view, edit and add open the record through onOpen', async () => {
    const http = demandApi();
    const { onOpen } = showList(demand, http);
    await idle();
    const first = http.tables.get('materialTotalDemand')![0];
    fireEvent.click(within(bodyRows()[0]).getByRole('button', { name: /查\s*看/ }));
    expect(onOpen).toHaveBeenLastCalledWith('view', expect.objectContaining({ id: first.id }));
    fireEvent.click(within(bodyRows()[0]).getByRole('button', { name: /编\s*辑/ }));
    expect(onOpen).toHaveBeenLastCalledWith('edit', expect.objectContaining({ id: first.id }));
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    expect(onOpen).toHaveBeenLastCalledWith('create');
  });

  it('export asks for the file of the filtered list', async () => {
    const http = demandApi();
    showList(demand, http);
    await idle();
    fireEvent.change(screen.getByPlaceholderText('计划名称'), { target: { value: '材料' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lastList(http)).toMatchObject({ title: '材料' }));
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(http.calls.find((c) => c.url.endsWith('/export'))?.params).toEqual({ title: '材料' }));
  });

  it('a user without the buttons sees no add, edit, delete or export, only view', async () => {
    const http = demandApi();
    showList(demand, http, { permissions: { material_total_demand_view: true } });
    await idle();
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    expect(within(bodyRows()[0]).getByRole('button', { name: /查\s*看/ })).toBeTruthy();
  });

  it('shows the error with a retry, and the empty state', async () => {
    const failing = createFakeHttp(catalog(), { rows: 3, failWith: '服务器开小差了' });
    showList(demand, failing);
    expect(await screen.findByText('数据加载失败:服务器开小差了')).toBeTruthy();
    const calls = listCalls(failing).length;
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(listCalls(failing).length).toBe(calls + 1));
    cleanup();
    showList(demand, createFakeHttp(catalog(), { rows: 0 }));
    await idle();
    expect(document.querySelector('.ant-empty')).toBeTruthy();
  });

  it('is busy while its data loads', async () => {
    showList(demand, createFakeHttp(catalog(), { hang: true }));
    expect(screen.getByTestId('entity-list').getAttribute('aria-busy')).toBe('true');
    expect(document.querySelector('.ant-skeleton')).toBeTruthy();
  });
});

describe('documents under approval', () => {
  it('offer view only: edit and delete are off on approving and approved rows and say why; drafts and rejected ones stay editable', async () => {
    const http = demandApi(4);
    const status = demand.workflow!.statusField;
    const rows = http.tables.get('materialTotalDemand')!;
    ['approving', 'approved', 'draft', 'rejected'].forEach((value, i) => {
      rows[i][status] = value;
      rows[i].title = `计划-${value}`;
    });
    showList(demand, http);
    await idle();
    const button = (title: string, name: RegExp) =>
      within(bodyRows().find((r) => r.textContent!.includes(title))!).getByRole('button', { name }) as HTMLButtonElement;
    expect(button('计划-approving', /编\s*辑/).disabled).toBe(true);
    expect(button('计划-approving', /删\s*除/).title).toBe('材料总需用计划正在审批中,不能修改、删除或重复提交');
    expect(button('计划-approved', /删\s*除/).disabled).toBe(true);
    expect(button('计划-approved', /编\s*辑/).title).toBe('材料总需用计划已审批通过,不能修改或删除');
    expect(button('计划-approved', /查\s*看/).disabled).toBe(false);
    for (const open of ['计划-draft', '计划-rejected']) {
      expect(button(open, /编\s*辑/).disabled).toBe(false);
      expect(button(open, /删\s*除/).disabled).toBe(false);
    }
  });

  it('offer no delete on a record that is never removed: the platform tenant (issue #25)', async () => {
    const tenant = catalog().entities.tenant;
    const http = createFakeHttp(catalog(), { rows: 3 });
    const [platform, other] = http.tables.get('tenant')!;
    Object.assign(platform, { tenantId: '000000', tenantName: '筑算平台' });
    Object.assign(other, { tenantId: '123456', tenantName: '江北建设' });
    showList(tenant, http);
    await idle();
    const button = (name: string, label: RegExp) =>
      within(bodyRows().find((r) => r.textContent!.includes(name))!).getByRole('button', { name: label }) as HTMLButtonElement;
    expect(button('筑算平台', /删\s*除/).disabled).toBe(true);
    expect(button('筑算平台', /删\s*除/).title).toBe('筑算平台 不能删除');
    expect(button('筑算平台', /编\s*辑/).disabled).toBe(false);
    expect(button('江北建设', /删\s*除/).disabled).toBe(false);
  });
});

describe('data-scope rules in the list (issue #25)', () => {
  const rules = () => {
    const http = createFakeHttp(catalog(), { rows: 3 });
    const [builtIn, platform, own] = http.tables.get('dataScope')!;
    Object.assign(builtIn, { scopeName: '本部门', builtIn: 1, tenantId: '000000' });
    Object.assign(platform, { scopeName: '房建项目', builtIn: 0, tenantId: '000000' });
    Object.assign(own, { scopeName: '市政项目', builtIn: 0, tenantId: '123456' });
    return http;
  };
  const button = (name: string, label: RegExp) =>
    within(bodyRows().find((r) => r.textContent!.includes(name))!).getByRole('button', { name: label }) as HTMLButtonElement;

  it("offer a tenant neither edit nor delete on a built-in rule or the platform's, saying why; its own rules are its to change", async () => {
    showList(catalog().entities.dataScope, rules(), { tenantId: '123456' });
    await idle();
    for (const label of [/编\s*辑/, /删\s*除/]) {
      expect(button('本部门', label).disabled).toBe(true);
      expect(button('房建项目', label).disabled).toBe(true);
      expect(button('市政项目', label).disabled).toBe(false);
    }
    expect(button('本部门', /编\s*辑/).title).toBe('数据权限「本部门」由系统根据单据定义生成,不能修改或删除');
    expect(button('房建项目', /删\s*除/).title).toBe('数据权限「房建项目」由平台提供,租户不能修改或删除,可新增本租户自己的数据权限');
    expect(button('本部门', /查\s*看/).disabled).toBe(false);
  });

  it('offer the platform its own rules to change, never a built-in one', async () => {
    showList(catalog().entities.dataScope, rules(), { tenantId: '000000' });
    await idle();
    expect(button('本部门', /编\s*辑/).disabled).toBe(true);
    expect(button('房建项目', /编\s*辑/).disabled).toBe(false);
    expect(button('房建项目', /删\s*除/).disabled).toBe(false);
  });
});

describe('extensions of an entity', () => {
  it("the tenant package's view button is shown disabled; extra actions open their dialog with the rows", async () => {
    const opened: ActionDialogProps[] = [];
    const Dialog = (props: ActionDialogProps) => {
      opened.push(props);
      return (
        <button type="button" onClick={() => props.onClose(true)}>
          close-dialog
        </button>
      );
    };
    const tenantPackage = {
      disabledActions: ['view' as const],
      rowActions: [{ key: 'setting', label: 'admin.tenant.setting' as const, dialog: Dialog }],
      toolbarActions: [{ key: 'bulk', label: 'admin.tenant.package' as const, selection: 'one' as const, dialog: Dialog }],
    };
    const model = catalog().entities.tenantPackage;
    const http = createFakeHttp(catalog(), { rows: 3 });
    showList(model, http, { registry: { lists: { tenantPackage } } });
    await idle();
    const view = within(bodyRows()[0]).getByRole('button', { name: /查\s*看/ }) as HTMLButtonElement;
    expect(view.disabled).toBe(true);
    expect((within(bodyRows()[0]).getByRole('button', { name: /编\s*辑/ }) as HTMLButtonElement).disabled).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: '产品包配置' }));
    expect(await screen.findByText('请选择至少一条数据')).toBeTruthy();
    fireEvent.click(within(bodyRows()[0]).getByRole('button', { name: '授权配置' }));
    expect(opened.at(-1)?.rows.map((r) => r.id)).toEqual([http.tables.get('tenantPackage')![0].id]);
    const lists = listCalls(http).length;
    fireEvent.click(screen.getByText('close-dialog'));
    await waitFor(() => expect(listCalls(http).length).toBe(lists + 1));
    expect(screen.queryByText('close-dialog')).toBeNull();
  });
});

describe('tree entities', () => {
  it('list their roots lazily and load the children of a row when it is expanded; a search lists flat', async () => {
    const model = catalog().entities.goodsClassify;
    const http = createFakeHttp(catalog(), { rows: 9 });
    showList(model, http);
    await idle();
    const rows = http.tables.get('goodsClassify')!;
    const roots = rows.filter((r) => r.parentId === '0');
    expect(http.calls.find((c) => c.url.endsWith('/lazy-list'))?.params).toEqual({ parentId: '0' });
    expect(bodyRows().map((r) => r.getAttribute('data-row-id'))).toEqual(roots.map((r) => r.id));
    expect(document.querySelector('.ant-pagination')).toBeNull();

    fireEvent.click(within(bodyRows()[0]).getByRole('button', { name: '展开' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(roots.length + 2));
    expect(http.calls.filter((c) => c.url.endsWith('/lazy-list')).at(-1)?.params).toEqual({ parentId: roots[0].id });
    const children = rows.filter((r) => r.parentId === roots[0].id).map((r) => r.id);
    expect(
      bodyRows()
        .slice(1, 3)
        .map((r) => r.getAttribute('data-row-id')),
    ).toEqual(children);
    fireEvent.click(within(bodyRows()[0]).getByRole('button', { name: '收起' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(roots.length));

    fireEvent.change(screen.getByPlaceholderText('分类名称'), { target: { value: rows[1].name } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lastList(http)).toMatchObject({ name: rows[1].name }));
    await idle();
    expect(bodyRows().map((r) => r.getAttribute('data-row-id'))).toEqual([rows[1].id]);
  });
});

describe('forest entities (x-entity.tree.list)', () => {
  it('a search shows what it found as a forest, every branch open and closable, with the count and no pages', async () => {
    const model = catalog().entities.dept;
    const http = createFakeHttp(catalog(), { rows: 9 });
    const rows = http.tables.get('dept')!;
    const roots = rows.filter((r) => r.parentId === '0');
    const [company] = roots;
    const branches = rows.filter((r) => r.parentId === company.id);
    expect(branches.length, 'the fake tree has branches under its first root').toBeGreaterThan(0);
    for (const r of rows) r.deptName = `其他${r.id}`;
    company.deptName = '华东公司';
    for (const r of branches) r.deptName = `华东公司${r.id}项目部`;
    showList(model, http);
    await idle();

    fireEvent.change(screen.getByPlaceholderText(model.fieldMap.deptName.label.zh), { target: { value: '华东' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lastList(http)).toMatchObject({ deptName: '华东' }));
    await idle();
    await waitFor(() => expect(bodyRows().map((r) => r.getAttribute('data-row-id'))).toEqual([company.id, ...branches.map((r) => r.id)]));
    expect(document.querySelector('.ant-pagination')).toBeNull();
    expect(screen.getByText(`共 ${1 + branches.length} 条`)).toBeTruthy();

    fireEvent.click(within(bodyRows()[0]).getByRole('button', { name: '收起' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    fireEvent.click(within(bodyRows()[0]).getByRole('button', { name: '展开' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(1 + branches.length));
  });
});

describe('column settings', () => {
  const changed = ['title', 'code', ...demandColumns.filter((c) => !['title', 'code', 'compilerName'].includes(c))];

  it('hide and reorder columns, set a width; kept per user and entity across remounts, until reset', async () => {
    const http = demandApi();
    showList(demand, http);
    await idle();
    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    const panel = await screen.findByTestId('column-settings');
    fireEvent.click(within(panel).getByRole('checkbox', { name: '编制人' }));
    fireEvent.click(within(panel).getAllByRole('button', { name: '上移' })[1]);
    fireEvent.change(within(panel).getByRole('spinbutton', { name: '计划名称 列宽' }), { target: { value: '300' } });
    fireEvent.blur(within(panel).getByRole('spinbutton', { name: '计划名称 列宽' }));
    await waitFor(() => expect(headerTexts()).toEqual(headersOf(changed)));
    await waitFor(() => expect((document.querySelectorAll('colgroup col')[1] as HTMLElement).style.width).toBe('300px'));
    expect(Object.keys(localStorage).filter((k) => k.startsWith('zhusuan-list-columns'))).toEqual([
      'zhusuan-list-columns-1001-materialTotalDemand',
    ]);

    cleanup();
    showList(demand, http);
    await idle();
    expect(headerTexts()).toEqual(headersOf(changed));
    expect((document.querySelectorAll('colgroup col')[1] as HTMLElement).style.width).toBe('300px');

    cleanup();
    renderWithApi(<EntityList model={demand} onOpen={() => undefined} />, {
      http,
      permissions: grants('material_total_demand'),
      userId: '2002',
    });
    await idle();
    expect(headerTexts()).toContain('编制人');

    cleanup();
    showList(demand, http);
    await idle();
    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    fireEvent.click(within(await screen.findByTestId('column-settings')).getByRole('button', { name: /恢复默认/ }));
    await waitFor(() => expect(headerTexts()).toEqual(headersOf(demandColumns)));
    expect(localStorage.getItem('zhusuan-list-columns-1001-materialTotalDemand')).toBeNull();
  });
});

describe('the list of records the server alone writes (x-entity.readOnly)', () => {
  it('offers viewing and export only, whatever buttons the user holds', async () => {
    const model = catalog().entities.logError;
    const http = createFakeHttp(catalog(), { rows: 5 });
    http.tables.get('logError')!.forEach((r) => {
      r.message = 'TypeError: boom';
    });
    showList(model, http, { permissions: grants(model.menu!.code) });
    await idle();
    expect(bodyRows()).toHaveLength(5);
    const toolbar = document.querySelector('.zs-list-toolbar') as HTMLElement;
    expect(within(toolbar).queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(within(toolbar).queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(toolbarButton(/导\s*出/)).toBeTruthy();
    const actions = within(bodyRows()[0])
      .getAllByRole('button')
      .map((b) => b.textContent?.replace(/\s/g, ''));
    expect(actions).toEqual(['查看']);
  });
});
