// @vitest-environment happy-dom
// The approval pages over a fake flow API: the handle page (claim first, approve or reject with a
// comment, the fields a step may change, timeline and diagram), the detail page, the start form
// sent to submit, and a prefix no document carries.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalog } from '../renderers/catalog.ts';
import { EntityForm } from '../renderers/form/EntityForm.tsx';
import { createFakeHttp } from '../renderers/testing/fake-http.ts';
import { renderWithApi } from '../renderers/testing/providers.tsx';
import { DetailPage, HandlePage } from './ProcessPages.tsx';
import { createFakeFlow, type FakeFlow } from './testing/fake-flow.ts';

vi.mock('./BpmnCanvas.tsx', () => ({
  default: ({ highlights }: { highlights: { active: string[] } }) => (
    <div data-testid="canvas-stub">active:{highlights.active.join(',')}</div>
  ),
}));

// antd pages render slowly on a busy machine: wait up to 10 s for what a user would see
afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/work/todo'));

const handle = (http: FakeFlow, lang: 'zh' | 'en' = 'zh') =>
  renderWithApi(
    <HandlePage
      params={{ prefix: 'materialTotalDemand', taskId: '9001', processInstanceId: '7001', businessId: String(http.document.id) }}
    />,
    { http, lang },
  );
const completion = (http: FakeFlow) => http.calls.find((c) => c.url.endsWith('/work/complete-task'));
const button = async (name: RegExp) => within(await screen.findByTestId('task-actions')).findByRole('button', { name });

describe('the handle page', () => {
  it('shows the document, the timeline and the diagram, and asks to claim an unclaimed task first', async () => {
    const http = createFakeFlow();
    handle(http);
    expect(await screen.findByText('该任务尚未签收,签收后才能处理')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('江北人才公寓钢筋计划').length).toBeGreaterThan(0));
    expect((await screen.findAllByTestId('history-entry')).map((e) => e.textContent)).toEqual([
      expect.stringContaining('提交王晓明'),
      expect.stringContaining('项目经理审批'),
    ]);
    expect(screen.getAllByTestId('history-entry')[1].textContent).toContain('待处理');
    expect((await screen.findByTestId('canvas-stub')).textContent).toBe('active:pmApprove');
    expect(screen.queryByRole('button', { name: /同\s*意/ })).toBeNull();

    fireEvent.click(await button(/签\s*收/));
    expect(await screen.findByText('签收成功')).toBeTruthy();
    expect(await button(/同\s*意/)).toBeTruthy();
  });

  it('approves with a comment: complete-task with flag ok, then back to 待办事务', async () => {
    const http = createFakeFlow({ claimed: true });
    handle(http);
    fireEvent.change(await screen.findByLabelText('审批意见'), { target: { value: '同意采购' } });
    fireEvent.click(await button(/同\s*意/));
    expect(await screen.findByText('审批成功')).toBeTruthy();
    expect(completion(http)).toMatchObject({ method: 'post', body: { taskId: '9001', flag: 'ok', comment: '同意采购' } });
    expect(completion(http)!.body).not.toHaveProperty('record');
    await waitFor(() => expect(window.location.pathname).toBe('/work/todo'));
    expect(http.document.approvalStatus).toBe('approved');
  });

  it('a reject needs a comment, then sends a flag other than ok', async () => {
    const http = createFakeFlow({ claimed: true });
    handle(http);
    fireEvent.click(await button(/驳\s*回/));
    expect(await screen.findByText('驳回时请填写审批意见')).toBeTruthy();
    expect(completion(http)).toBeUndefined();
    fireEvent.change(screen.getByLabelText('审批意见'), { target: { value: '数量有误' } });
    fireEvent.click(await button(/驳\s*回/));
    expect(await screen.findByText('已驳回')).toBeTruthy();
    expect(completion(http)?.body).toMatchObject({ flag: 'reject', comment: '数量有误' });
  });

  it('the approval comment comes first; the remark this step may change is apart, under the document, as a change to it', async () => {
    const http = createFakeFlow({ claimed: true, taskDefinitionKey: 'costApprove' });
    handle(http);
    const actions = await screen.findByTestId('task-actions');
    const changes = await screen.findByTestId('document-changes');
    // the decision's card holds the comment and nothing of the document; the document's fields are in their own card after it
    expect(within(actions).getByLabelText('审批意见')).toBeTruthy();
    expect(within(actions).queryByLabelText('备注')).toBeNull();
    expect(within(changes).getByText('对单据的修改')).toBeTruthy();
    expect(within(changes).getByLabelText('备注')).toBeTruthy();
    const order = [actions, screen.getByText('单据信息'), changes];
    for (let i = 1; i < order.length; i++)
      expect(order[i - 1].compareDocumentPosition(order[i]) & Node.DOCUMENT_POSITION_FOLLOWING, `${i}`).toBeTruthy();
    // a reject acts on the comment, whatever the remark holds
    fireEvent.change(within(changes).getByLabelText('备注'), { target: { value: '单价偏高' } });
    fireEvent.click(await button(/驳\s*回/));
    expect(await screen.findByText('驳回时请填写审批意见')).toBeTruthy();
    expect(completion(http)).toBeUndefined();
    fireEvent.change(within(actions).getByLabelText('审批意见'), { target: { value: '单价偏高,请核实' } });
    fireEvent.click(await button(/驳\s*回/));
    expect(await screen.findByText('已驳回')).toBeTruthy();
    expect(completion(http)?.body).toMatchObject({ flag: 'reject', comment: '单价偏高,请核实', record: { remark: '单价偏高' } });
  });

  it('the step that may change the remark shows it filled in, and sends only it as the record', async () => {
    const http = createFakeFlow({ claimed: true, taskDefinitionKey: 'costApprove' });
    handle(http, 'en');
    const remark = (await screen.findByLabelText('Remark')) as HTMLTextAreaElement;
    await waitFor(() => expect(remark.value).toBe('初稿'));
    // the document form's own widget for the field: its textarea, its length limit and placeholder
    const field = catalog().entities.materialTotalDemand.fieldMap.remark;
    expect(remark.tagName).toBe('TEXTAREA');
    expect(remark.maxLength).toBe(field.maxLength);
    expect(remark.placeholder).toBe('please enter remark');
    fireEvent.change(remark, { target: { value: '已核对单价' } });
    fireEvent.click(await button(/Approve/));
    expect(await screen.findByText('Approved')).toBeTruthy();
    expect(completion(http)?.body).toMatchObject({ flag: 'ok', record: { remark: '已核对单价' } });
    expect(Object.keys((completion(http)!.body as { record: object }).record)).toEqual(['remark']);
  });

  it("another document type under approval (Storybook's approval view of each type): its own page, approved into its own status", async () => {
    // a document type whose prefix is not its key, so that the page is found by prefix
    const model = Object.values(catalog().entities).find((m) => m.workflow && m.workflow.prefix !== m.key)!;
    const http = createFakeFlow({ entity: model.key, claimed: true });
    renderWithApi(
      <HandlePage
        params={{ prefix: model.workflow!.prefix, taskId: '9001', processInstanceId: '7001', businessId: String(http.document.id) }}
      />,
      { http },
    );
    expect(await screen.findByText(`处理事务:${model.label.zh}`)).toBeTruthy();
    fireEvent.change(await screen.findByLabelText('审批意见'), { target: { value: '同意' } });
    fireEvent.click(await button(/同\s*意/));
    expect(await screen.findByText('审批成功')).toBeTruthy();
    expect(http.document[model.workflow!.statusField]).toBe('approved');
  });

  it('a task already handled says so instead of offering buttons', async () => {
    const http = createFakeFlow({ claimed: true });
    renderWithApi(
      <HandlePage
        params={{ prefix: 'materialTotalDemand', taskId: '404', processInstanceId: '7001', businessId: String(http.document.id) }}
      />,
      { http },
    );
    expect(await screen.findByText('该任务已处理或无权处理')).toBeTruthy();
  });

  it('a prefix without a document type shows 该单据类型尚未配置 (every default prefix has one now: a route typed by hand)', async () => {
    renderWithApi(<HandlePage params={{ prefix: 'siteVisaChange', taskId: '1', processInstanceId: '2', businessId: '3' }} />, {
      http: createFakeFlow(),
    });
    expect(screen.getByText('该单据类型尚未配置')).toBeTruthy();
    expect(screen.getByText('流程前缀 siteVisaChange 没有对应的单据')).toBeTruthy();
  });
});

describe('the detail page', () => {
  it('shows the instance, the document, the timeline and the diagram, read-only', async () => {
    const http = createFakeFlow();
    renderWithApi(
      <DetailPage params={{ prefix: 'materialTotalDemand', processInstanceId: '7001', businessId: String(http.document.id) }} />,
      { http },
    );
    expect(await screen.findByText('材料总需用计划审批')).toBeTruthy();
    expect(await screen.findByText('进行中')).toBeTruthy();
    expect((await screen.findByTestId('canvas-stub')).textContent).toBe('active:pmApprove');
    expect(screen.queryByRole('button', { name: /同\s*意/ })).toBeNull();
    expect(http.calls.find((c) => c.url.endsWith('/process/instance-detail'))?.params).toEqual({ processInstanceId: '7001' });
  });
});

describe('the start form (EntityForm submitTo)', () => {
  it('posts the new record to the submit URL with its process definition, under a 提交 button', async () => {
    const http = createFakeHttp(catalog());
    const onDone = vi.fn();
    renderWithApi(
      <EntityForm
        model={catalog().entities.param}
        mode="create"
        submitTo={{ url: '/api/blade-system/param/submit', searchParams: { processDefinitionId: 'p:1:1' } }}
        onDone={onDone}
      />,
      { http },
    );
    await waitFor(() => expect(document.getElementById('root_paramName')).toBeTruthy());
    fireEvent.change(document.getElementById('root_paramName')!, { target: { value: '流程参数' } });
    fireEvent.change(document.getElementById('root_paramKey')!, { target: { value: 'flow.test' } });
    fireEvent.change(document.getElementById('root_paramValue')!, { target: { value: '1' } });
    expect(screen.queryByRole('button', { name: /保\s*存/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('提交成功')).toBeTruthy();
    const post = http.calls.find((c) => c.method === 'post');
    expect(post).toMatchObject({
      url: '/api/blade-system/param/submit',
      params: { processDefinitionId: 'p:1:1' },
      body: { paramName: '流程参数', paramKey: 'flow.test', paramValue: '1' },
    });
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ paramKey: 'flow.test' })));
  });
});
