// Approval workflows over HTTP, as the people involved would use them: a clerk submits a material
// total demand, the project manager claims and approves it (the cost manager too when the amount is
// above the threshold), rejects send it back, the clerk recalls, countersigns need two of three, a
// second tenant sees none of it, approved documents stay as they were, and two servers completing
// the parallel tasks of the same instances never lose a step.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import { chain, endEvent, flow, parallel, processXml, startEvent, userTask } from '../../src/engine/workflow/testing.ts';
import { testConfig } from './config.ts';
import { nodesOf } from '../../src/engine/tree/forest.ts';
import { demand, demandRow, goods, project } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';

const DOC = '/api/construct/materialTotalDemand';
const FLOW = '/api/blade-flow';

interface Person {
  id: string;
  token: string;
  api: Api;
  en: Api;
}

/** A seeded user with a token as login would issue it, calling `server`. */
async function person(server: Pick<App, 'db' | 'tokens' | 'app'>, account: string, tenantId = '000000'): Promise<Person> {
  const [u] = await server.db.query<{ id: string; deptId: string; roleId: string; aliases: string }>(
    `SELECT u.id::text AS id, u.dept_id AS "deptId", u.role_id AS "roleId",
       (SELECT string_agg(r.role_alias, ',') FROM blade_role r WHERE r.id::text = ANY(string_to_array(u.role_id, ','))) AS aliases
       FROM blade_user u WHERE u.account = $1 AND u.tenant_id = $2`,
    [account, tenantId],
  );
  const token = await server.tokens.sign({
    tenant_id: tenantId,
    user_id: u.id,
    dept_id: u.deptId,
    role_id: u.roleId,
    role_name: u.aliases,
  });
  return { id: u.id, token, api: client(server as TestServer, token), en: client(server as TestServer, token, 'en') };
}

const records = (res: { body: { data: { records: any[] } } }) => res.body.data.records;

function expectOk(res: { status: number; body: any }) {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
  return res.body.data;
}

describe.each(databaseKinds())('approval workflows on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let clerk: Person;
  let manager: Person;
  let costmgr: Person;
  let projectId: string;
  let rebarId: string;

  /** A demand the clerk writes: amount = qty × 1.02 × price. */
  const draft = async (price = 1000, title = '主体结构材料总计划') =>
    demand(clerk.api, projectId, [demandRow(rebarId, 100, price)], { title });
  const submit = async (record: Record<string, unknown>, query: Record<string, string> = {}) =>
    expectOk(await clerk.api.post(`${DOC}/submit`, record, query));
  const claimable = async (who: Person, instanceId: string) =>
    records(await who.api.get(`${FLOW}/work/claim-list`, { size: '100' })).filter((r) => r.processInstanceId === instanceId);
  const todo = async (who: Person, instanceId: string) =>
    records(await who.api.get(`${FLOW}/work/todo-list`, { size: '100' })).filter((r) => r.processInstanceId === instanceId);

  /** The one task of `instanceId` that `who` can claim: claimed and returned. */
  async function claim(who: Person, instanceId: string) {
    const [task] = await claimable(who, instanceId);
    expect(task, `no task to claim for ${instanceId}`).toBeDefined();
    expectOk(await who.api.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId }));
    return task;
  }

  const approve = (who: Person, taskId: string, comment = '同意', extra: Record<string, unknown> = {}) =>
    who.api.post(`${FLOW}/work/complete-task`, { taskId, flag: 'ok', comment, ...extra });
  const rejectTask = (who: Person, taskId: string, comment: string) => who.api.post(`${FLOW}/work/complete-task`, { taskId, comment });
  const detail = async (id: string) => expectOk(await admin.get(`${DOC}/detail`, { id }));
  /** The process keys of the schema set's approval documents, each once: the defaults a tenant gets. */
  const defaultKeys = () =>
    [...new Set(Object.values(server.catalog.entities).flatMap((m) => (m.workflow ? [m.workflow.processKey] : [])))].sort();

  beforeAll(async () => {
    server = await startServer(kind);
    admin = client(server, await server.token());
    [clerk, manager, costmgr] = await Promise.all([person(server, 'clerk'), person(server, 'manager'), person(server, 'costmgr')]);
    projectId = (await project(admin)).id;
    rebarId = (await goods(admin)).id;
  });
  afterAll(() => server?.dispose());

  it('submit → the project manager claims and approves → approved, with its timeline, diagram and messages', async () => {
    const doc = await draft(1000); // 102,000: under the 500,000 threshold
    expect(doc.approvalStatus).toBe('draft');
    const submitted = await submit({ id: doc.id });
    expect(submitted).toMatchObject({ id: doc.id, approvalStatus: 'approving' });
    const instanceId = submitted.processInstanceId;
    expect(instanceId).toMatch(/^\d+$/);

    // nobody has it to do yet; every project manager may claim it
    expect(await todo(manager, instanceId)).toEqual([]);
    const [offered] = await claimable(manager, instanceId);
    expect(offered).toMatchObject({
      taskName: '项目经理审批',
      taskDefinitionKey: 'pmApprove',
      processDefinitionKey: 'materialTotalDemand',
      processDefinitionName: '材料总需用计划审批',
      category: 'flow_materialTotalDemand',
      categoryName: '材料总需用计划',
      route: 'materialTotalDemand',
      businessId: doc.id,
      businessTitle: '主体结构材料总计划',
      startUser: clerk.id,
      startUserName: '王晓明',
      processIsFinished: 'unfinished',
    });
    expect(await claimable(costmgr, instanceId)).toEqual([]);

    // the manager was told
    const inbox = records(await manager.api.get('/api/blade-message/message/my/list', { size: '50' }));
    expect(inbox.some((m) => m.type === '3' && m.title === '【待审批】材料总需用计划审批: 主体结构材料总计划')).toBe(true);

    const task = await claim(manager, instanceId);
    expect(await claimable(manager, instanceId)).toEqual([]);
    const [mine] = await todo(manager, instanceId);
    expect(mine).toMatchObject({ taskId: task.taskId, assignee: manager.id, assigneeName: '李建国' });
    const handle = expectOk(await manager.api.get(`${FLOW}/work/task-detail`, { taskId: task.taskId }));
    expect(handle).toMatchObject({ canComplete: true, canClaim: false, editableFields: [] });

    expect(expectOk(await approve(manager, task.taskId, '同意,按计划采购'))).toMatchObject({
      processStatus: 'completed',
      processIsFinished: 'finished',
    });
    expect((await detail(doc.id)).approvalStatus).toBe('approved');
    expect(await todo(manager, instanceId)).toEqual([]);
    const [done] = records(await manager.api.get(`${FLOW}/work/done-list`)).filter((r) => r.processInstanceId === instanceId);
    expect(done).toMatchObject({ taskName: '项目经理审批', comment: '同意,按计划采购', isPass: true, processIsFinished: 'finished' });
    const [sent] = records(await clerk.api.get(`${FLOW}/work/send-list`)).filter((r) => r.processInstanceId === instanceId);
    expect(sent).toMatchObject({ processIsFinished: 'finished', status: 'completed', businessId: doc.id });

    const timeline = expectOk(await clerk.api.get(`${FLOW}/process/history-flow-list`, { processInstanceId: instanceId }));
    expect(timeline.map((h: any) => [h.historyActivityType, h.historyActivityName, h.assigneeName])).toEqual([
      ['startEvent', '提交', '王晓明'],
      ['userTask', '项目经理审批', '李建国'],
      ['endEvent', '结束', ''],
    ]);
    expect(timeline[1]).toMatchObject({ comment: '同意,按计划采购', isPass: true });
    expect(timeline[1].endTime).not.toBe('');

    const view = expectOk(await clerk.api.get(`${FLOW}/process/model-view`, { processInstanceId: instanceId }));
    expect(view.xml).toContain('<process id="materialTotalDemand"');
    expect(view.flow.map((f: any) => f.historyActivityId)).toEqual([
      'start',
      'toPm',
      'pmApprove',
      'toGateway',
      'amountGateway',
      'toEnd',
      'end',
    ]);
    expect(view.flow.every((f: any) => f.endTime !== '')).toBe(true);

    const news = records(await clerk.api.get('/api/blade-message/message/my/list', { size: '50' }));
    expect(news.some((m) => m.title === '【审批通过】材料总需用计划审批: 主体结构材料总计划')).toBe(true);
  });

  it('an amount above the threshold goes on to the cost manager; the diagram shows where it waits', async () => {
    const doc = await draft(5000, '大额计划'); // 510,000
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    const pm = await claim(manager, instanceId);
    expectOk(await approve(manager, pm.taskId));
    expect((await detail(doc.id)).approvalStatus).toBe('approving');
    const view = expectOk(await clerk.api.get(`${FLOW}/process/model-view`, { processInstanceId: instanceId }));
    const open = view.flow.filter((f: any) => f.endTime === '').map((f: any) => f.historyActivityId);
    expect(open).toEqual(['costApprove']);
    expect(view.flow.map((f: any) => f.historyActivityId)).toContain('toCost');

    const cost = await claim(costmgr, instanceId);
    expect(cost.taskName).toBe('成本经理审批');
    expectOk(await approve(costmgr, cost.taskId));
    expect((await detail(doc.id)).approvalStatus).toBe('approved');
  });

  it('the cost manager may change the remark while approving, and only the remark', async () => {
    const doc = await draft(5000, '备注可改');
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    expectOk(await approve(manager, (await claim(manager, instanceId)).taskId));
    const cost = await claim(costmgr, instanceId);
    expect(expectOk(await costmgr.api.get(`${FLOW}/work/task-detail`, { taskId: cost.taskId })).editableFields).toEqual(['remark']);
    const refused = await approve(costmgr, cost.taskId, '同意', { record: { title: '改标题' } });
    expect(refused.body).toMatchObject({ code: 400, msg: '计划名称在当前审批环节不可修改' });
    expectOk(await approve(costmgr, cost.taskId, '同意', { record: { remark: '按二期价格执行' } }));
    expect(await detail(doc.id)).toMatchObject({ approvalStatus: 'approved', remark: '按二期价格执行', title: '备注可改' });
  });

  it('a reject returns the document to the clerk, who edits and submits it again', async () => {
    const doc = await draft(1000, '驳回重提');
    const first = await submit({ id: doc.id });
    const task = await claim(manager, first.processInstanceId);
    expectOk(await rejectTask(manager, task.taskId, '数量偏大'));
    expect((await detail(doc.id)).approvalStatus).toBe('rejected');
    const news = records(await clerk.api.get('/api/blade-message/message/my/list', { size: '50' }));
    expect(news.some((m) => m.title === '【已驳回】材料总需用计划审批: 驳回重提' && m.content.includes('数量偏大'))).toBe(true);
    const [row] = records(await manager.api.get(`${FLOW}/work/done-list`)).filter((r) => r.taskId === task.taskId);
    expect(row).toMatchObject({ isPass: false, comment: '数量偏大' });

    // editable again, and resubmitted with the change in one call
    const current = await detail(doc.id);
    const second = await submit({
      ...current,
      title: '驳回重提(修改后)',
      details: current.details.map((d: any) => ({ ...d, designQty: 80 })),
    });
    expect(second).toMatchObject({ approvalStatus: 'approving', title: '驳回重提(修改后)' });
    expect(second.processInstanceId).not.toBe(first.processInstanceId);
    expect(await claimable(manager, second.processInstanceId)).toHaveLength(1);
  });

  it('the submitter recalls before anyone acted; afterwards it is too late', async () => {
    const doc = await draft(5000, '撤回');
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    expect((await manager.api.post(`${DOC}/recall`, undefined, { id: doc.id })).body.msg).toBe('只有发起人可以撤回');
    expectOk(await clerk.api.post(`${DOC}/recall`, undefined, { id: doc.id }));
    expect((await detail(doc.id)).approvalStatus).toBe('withdrawn');
    expect(await claimable(manager, instanceId)).toEqual([]);

    const again = await submit({ id: doc.id });
    expectOk(await approve(manager, (await claim(manager, again.processInstanceId)).taskId));
    const late = await clerk.en.post(`${FLOW}/work/recall-process`, undefined, { processInstanceId: again.processInstanceId });
    expect(late.body).toMatchObject({ code: 400, msg: 'Someone has already acted on it; it can no longer be recalled' });
    expect((await detail(doc.id)).approvalStatus).toBe('approving');
  });

  it('list and detail say who may recall: the submitter, until someone acts; nobody else', async () => {
    const doc = await draft(5000, '谁能撤回');
    const canRecall = async (who: Person) => {
      const [row] = records(await who.api.get(`${DOC}/list`, { title: '谁能撤回', size: '10' }));
      const one = expectOk(await who.api.get(`${DOC}/detail`, { id: doc.id }));
      expect(one.canRecall, 'detail and list agree').toBe(row.canRecall);
      return row.canRecall;
    };
    expect(await canRecall(clerk)).toBe(false); // a draft is submitted, not recalled
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    expect(await canRecall(clerk)).toBe(true);
    expect(await canRecall(costmgr)).toBe(false);
    expect(await canRecall(manager)).toBe(false);
    // claiming is not acting: the submitter may still take it back
    const task = await claim(manager, instanceId);
    expect(await canRecall(clerk)).toBe(true);
    expectOk(await approve(manager, task.taskId));
    expect(await canRecall(clerk)).toBe(false);
  });

  it('work/counts says how many tasks wait to be claimed and how many are to do', async () => {
    const counts = async (who: Person) => expectOk(await who.api.get(`${FLOW}/work/counts`));
    const before = { manager: await counts(manager), costmgr: await counts(costmgr) };
    const doc = await draft(5000, '计数');
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    expect(await counts(manager)).toEqual({ todo: before.manager.todo, claim: before.manager.claim + 1 });
    expect(await counts(costmgr)).toEqual(before.costmgr);
    const task = await claim(manager, instanceId);
    expect(await counts(manager)).toEqual({ todo: before.manager.todo + 1, claim: before.manager.claim });
    expectOk(await approve(manager, task.taskId));
    expect(await counts(manager)).toEqual(before.manager);
    expect(await counts(costmgr)).toEqual({ todo: before.costmgr.todo, claim: before.costmgr.claim + 1 });
  });

  it('a reject needs a comment; the comment goes to the approval, the editable remark to the document', async () => {
    const doc = await draft(5000, '意见与备注');
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    expectOk(await approve(manager, (await claim(manager, instanceId)).taskId));
    const cost = await claim(costmgr, instanceId);
    const bare = await costmgr.api.post(`${FLOW}/work/complete-task`, { taskId: cost.taskId, comment: '  ', record: { remark: '改了' } });
    expect(bare.body).toMatchObject({ code: 400, msg: '驳回时请填写审批意见' });
    const bareEn = await costmgr.en.post(`${FLOW}/work/complete-task`, { taskId: cost.taskId, flag: 'reject' });
    expect(bareEn.body).toMatchObject({ code: 400, msg: 'Please give a comment when rejecting' });
    expect(await detail(doc.id)).toMatchObject({ approvalStatus: 'approving', remark: null });

    expectOk(await rejectTask(costmgr, cost.taskId, '单价偏高'));
    expect((await detail(doc.id)).approvalStatus).toBe('rejected');
    const timeline = expectOk(await clerk.api.get(`${FLOW}/process/history-flow-list`, { processInstanceId: instanceId }));
    expect(timeline.find((h: any) => h.historyActivityName === '成本经理审批')).toMatchObject({ comment: '单价偏高', isPass: false });
  });

  it("approving and approved documents refuse update, remove and a second submit, in the caller's language", async () => {
    const doc = await draft(1000, '锁定');
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    const busy = await admin.post(`${DOC}/update`, { ...(await detail(doc.id)), title: '偷改' });
    expect(busy.body).toMatchObject({ code: 400, msg: '材料总需用计划正在审批中,不能修改、删除或重复提交' });
    expect((await clerk.api.post(`${DOC}/submit`, { id: doc.id })).body.code).toBe(400);

    expectOk(await approve(manager, (await claim(manager, instanceId)).taskId));
    const approved = await detail(doc.id);
    const update = await admin.post(`${DOC}/update`, { ...approved, title: '偷改' });
    expect(update.body).toMatchObject({ code: 400, msg: '材料总需用计划已审批通过,不能修改或删除' });
    const part = await client(server, await server.token(), 'en').post(`${DOC}/updatePart`, { id: doc.id, remark: 'x' });
    expect(part.body).toMatchObject({
      code: 400,
      msg: 'The Total material demand plan is approved and can no longer be changed or deleted',
    });
    const remove = await admin.post(`${DOC}/remove`, undefined, { ids: doc.id });
    expect(remove.body).toMatchObject({ code: 400, msg: '材料总需用计划已审批通过,不能修改或删除' });
    expect(await detail(doc.id)).toMatchObject({ title: '锁定', approvalStatus: 'approved' });
    // the status cannot be set by hand either
    const sneaky = await admin.post(`${DOC}/save`, {
      projectId,
      title: '手工通过',
      planDate: '2026-03-10',
      compilerName: '张工',
      approvalStatus: 'approved',
      details: [demandRow(rebarId, 1, 1)],
    });
    expect(expectOk(sneaky).approvalStatus).toBe('draft');
  });

  it('only the candidates may claim, only the assignee may complete, a task is completed once', async () => {
    const doc = await draft(1000, '权限');
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    const [task] = await claimable(manager, instanceId);
    expect((await costmgr.api.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId })).body.msg).toBe(
      '任务已被签收或您不是候选人',
    );
    expect((await approve(manager, task.taskId)).body.msg).toBe('该任务不是您的待办任务,请先签收');
    await claim(manager, instanceId);
    expect((await approve(costmgr, task.taskId)).body.code).toBe(400);
    const results = await Promise.all([approve(manager, task.taskId), approve(manager, task.taskId)]);
    expect(results.map((r) => r.body.code).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.body.code === 400)!.body.msg).toBe('任务不存在或已被处理');
  });

  it('countersign: a deployed model with parallel reviews and two of three signatures', async () => {
    const model = processXml('materialTotalDemand', '需用计划会签', [
      startEvent('start'),
      parallel('fork'),
      userTask('finance', { name: '财务审核', assignee: 'manager' }),
      userTask('legal', { name: '法务审核', assignee: 'costmgr' }),
      parallel('join'),
      userTask('sign', {
        name: '会签',
        assignee: '${signer}',
        multi: { collection: 'manager,costmgr,center', elementVariable: 'signer', completion: '${nrOfCompletedInstances >= 2}' },
      }),
      endEvent('end'),
      flow('f1', 'start', 'fork'),
      flow('f2', 'fork', 'finance'),
      flow('f3', 'fork', 'legal'),
      flow('f4', 'finance', 'join'),
      flow('f5', 'legal', 'join'),
      flow('f6', 'join', 'sign'),
      flow('f7', 'sign', 'end'),
    ]);
    const saved = expectOk(await admin.post(`${FLOW}/model/submit`, { name: '需用计划会签', xml: model, description: '测试会签' }));
    expect(saved).toMatchObject({ modelKey: 'materialTotalDemand', version: 1 });
    expect(records(await admin.get(`${FLOW}/model/list`)).map((m) => m.name)).toContain('需用计划会签');
    const [definition] = expectOk(await admin.post(`${FLOW}/model/deploy`, undefined, { modelId: saved.id }));
    expect(definition).toMatchObject({ key: 'materialTotalDemand', category: 'flow_materialTotalDemand', suspensionState: 1 });
    expect(definition.version).toBeGreaterThan(1);

    const center = await person(server, 'center');
    const doc = await draft(1000, '会签');
    const { processInstanceId: instanceId } = await submit({ id: doc.id }, { processDefinitionId: definition.id });
    const [finance] = await todo(manager, instanceId);
    const [legal] = await todo(costmgr, instanceId);
    expect([finance.taskName, legal.taskName]).toEqual(['财务审核', '法务审核']);
    expectOk(await approve(manager, finance.taskId));
    expect(await todo(center, instanceId)).toEqual([]);
    expectOk(await approve(costmgr, legal.taskId));
    const signs = await Promise.all([manager, costmgr, center].map((p) => todo(p, instanceId)));
    expect(signs.map((s) => s.map((t) => t.taskName))).toEqual([['会签'], ['会签'], ['会签']]);
    expectOk(await approve(center, signs[2][0].taskId));
    expect((await detail(doc.id)).approvalStatus).toBe('approving');
    expectOk(await approve(manager, signs[0][0].taskId));
    expect((await detail(doc.id)).approvalStatus).toBe('approved');
    expect(await todo(costmgr, instanceId)).toEqual([]);
    const timeline = expectOk(await clerk.api.get(`${FLOW}/process/history-flow-list`, { processInstanceId: instanceId }));
    expect(timeline.filter((h: any) => h.historyActivityName === '会签')).toHaveLength(3);

    // the next submission without a chosen definition also takes the newest version
    const next = await submit({ id: (await draft(1000, '会签2')).id });
    expect((await todo(manager, next.processInstanceId)).map((t) => t.taskName)).toEqual(['财务审核']);
    // a deployment with running instances stays; once they are ended it can go, and the default is the newest again
    const busy = await admin.post(`${FLOW}/manager/delete-deployment`, undefined, { deploymentIds: definition.deploymentId });
    expect(busy.body.msg).toBe('流程定义 需用计划会签 还有 1 个运行中的实例,不能删除');
    expectOk(
      await admin.post(`${FLOW}/follow/delete-process-instance`, undefined, {
        processInstanceId: next.processInstanceId,
        deleteReason: '测试结束',
      }),
    );
    expectOk(await admin.post(`${FLOW}/manager/delete-deployment`, undefined, { deploymentIds: definition.deploymentId }));
    const again = await submit({ id: (await draft(1000, '会签3')).id });
    expect((await claimable(manager, again.processInstanceId)).map((t) => t.taskName)).toEqual(['项目经理审批']);
    expectOk(await admin.post(`${FLOW}/follow/delete-process-instance`, undefined, { processInstanceId: again.processInstanceId }));
  });

  it('refuses uploaded models with scripts, services or timers, naming the element; accepts a valid one', async () => {
    const boundary = `----zs${randomBytes(6).toString('hex')}`;
    const upload = (files: { name: string; xml: string }[], fields: Record<string, string> = {}) => {
      const parts = [
        ...Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
        ...files.map(
          (f) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/xml\r\n\r\n${f.xml}\r\n`,
        ),
      ];
      return server.app
        .inject({
          method: 'POST',
          url: `${FLOW}/manager/deploy-upload`,
          payload: parts.join('') + `--${boundary}--\r\n`,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'blade-auth': `bearer ${adminToken}` },
        })
        .then((r) => JSON.parse(r.body));
    };
    const adminToken = await server.token();
    const evil = chain('evilProcess', ['a']).replace(
      '<endEvent id="end"/>',
      '<endEvent id="end"/><scriptTask id="steal" name="读取环境" scriptFormat="javascript"><script>process.env</script></scriptTask>',
    );
    const refused = await upload([{ name: 'evil.bpmn', xml: evil }]);
    expect(refused.code).toBe(400);
    expect(refused.msg).toContain('脚本任务 "读取环境" (steal)');
    expect(records(await admin.get(`${FLOW}/manager/list`, { key: 'evilProcess' }))).toEqual([]);
    const timer = processXml('timerProcess', 'T', [
      '<startEvent id="s"><timerEventDefinition/></startEvent>',
      userTask('a', { assignee: 'admin' }),
      endEvent('e'),
      flow('f1', 's', 'a'),
      flow('f2', 'a', 'e'),
    ]);
    expect((await upload([{ name: 'timer.bpmn', xml: timer }])).msg).toContain('开始事件 (s) 的 定时器 不被支持');

    const good = await upload([{ name: 'good.bpmn', xml: chain('goodProcess', ['project_manager']) }], { category: 'flow_custom' });
    expect(good).toMatchObject({
      code: 200,
      data: [{ key: 'goodProcess', version: 1, category: 'flow_custom', resourceName: 'good.bpmn' }],
    });
    const listed = records(await admin.get(`${FLOW}/manager/list`, { key: 'goodProcess' }));
    expect(listed).toHaveLength(1);
    expectOk(await admin.post(`${FLOW}/manager/change-state`, undefined, { state: 'suspend', processId: listed[0].id }));
    expect(records(await admin.get(`${FLOW}/work/start-list`, { size: '100' })).map((p) => p.key)).not.toContain('goodProcess');
    expectOk(await admin.post(`${FLOW}/manager/change-state`, undefined, { state: 'active', processId: listed[0].id }));
    expect(records(await admin.get(`${FLOW}/work/start-list`, { size: '100' })).map((p) => p.key)).toContain('goodProcess');
  });

  it('lists the default process of every approval document to start, each once, in both languages', async () => {
    const list = expectOk(await clerk.api.get(`${FLOW}/work/start-list`, { size: '100', category: 'flow_materialTotalDemand' }));
    expect(list.records.map((p: any) => [p.key, p.name, p.categoryName])).toEqual([
      ['materialTotalDemand', '材料总需用计划审批', '材料总需用计划'],
    ]);
    const all = expectOk(await clerk.en.get(`${FLOW}/work/start-list`, { size: '100' }));
    const defaults = all.records.filter((p: any) => p.category.startsWith('flow_') && p.category !== 'flow_custom');
    expect(defaults.map((p: any) => p.key).sort()).toEqual(defaultKeys());
    expect(defaults.find((p: any) => p.key === 'laborSettlementFinalization')).toMatchObject({
      name: '劳务结算定案审批',
      categoryName: 'Labour settlement finalisation',
    });
    // each category is an entry of the flow dictionary (key = prefix, category flow_<key>), in both languages
    const categories = expectOk(await admin.get('/api/blade-system/dict/dictionary', { code: 'flow' }));
    const byKey = new Map(categories.map((d: any) => [d.dictKey, d]));
    for (const p of defaults) expect(byKey.get(p.category.replace(/^flow_/, '')), p.category).toBeDefined();
    expect(byKey.get('materialCheck')).toMatchObject({ dictValue: '材料验收' });
    const english = expectOk(await clerk.en.get('/api/blade-system/dict/dictionary', { code: 'flow' }));
    expect(english.find((d: any) => d.dictKey === 'materialCheck')).toMatchObject({ dictValue: 'Material check' });
  });

  it('a second tenant sees none of it and can touch none of it', async () => {
    const doc = await draft(1000, '租户隔离');
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    const [task] = await claimable(manager, instanceId);
    const other = await server.newTenant();
    const stranger = client(server, other.token);
    for (const list of ['todo-list', 'claim-list', 'send-list', 'done-list']) {
      expect(records(await stranger.get(`${FLOW}/work/${list}`)).filter((r) => r.processInstanceId === instanceId)).toEqual([]);
    }
    expect(records(await stranger.get(`${FLOW}/follow/list`))).toEqual([]);
    expect((await stranger.get(`${FLOW}/process/history-flow-list`, { processInstanceId: instanceId })).status).toBe(404);
    expect((await stranger.get(`${FLOW}/process/model-view`, { processInstanceId: instanceId })).status).toBe(404);
    expect((await stranger.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId })).body.code).toBe(400);
    expect((await stranger.post(`${FLOW}/work/complete-task`, { taskId: task.taskId, flag: 'ok' })).body.code).toBe(400);
    expect((await stranger.post(`${FLOW}/follow/delete-process-instance`, undefined, { processInstanceId: instanceId })).status).toBe(404);
    // its own defaults were deployed for it, and it starts nothing of ours
    const own = records(await stranger.get(`${FLOW}/work/start-list`, { size: '100' }));
    expect(own.map((p) => p.key).sort()).toEqual(defaultKeys());
    expect(own.every((p) => p.tenantId === other.tenantId)).toBe(true);
    expect(await claimable(manager, instanceId)).toHaveLength(1);
  });

  it('a new tenant gets the business roles its processes name; a task nobody could handle refuses the submit', async () => {
    const other = await server.newTenant();
    const tenantAdmin = client(server, other.token);
    const enAdmin = client(server, other.token, 'en');
    const roles = (await tenantAdmin.get('/api/blade-system/role/list', { size: '100' })).body.data;
    const aliases = nodesOf<any>(roles).map((r) => r.roleAlias);
    expect(aliases).toEqual(
      expect.arrayContaining(['admin', 'business', 'project_clerk', 'project_manager', 'cost_manager', 'cost_center']),
    );
    expect(aliases).not.toContain('administrator');
    const [pmRole] = await server.db.query<{ id: string }>(
      `SELECT id::text AS id FROM blade_role WHERE tenant_id = $1 AND role_alias = 'project_manager'`,
      [other.tenantId],
    );

    // a demand there: its first task goes to project_manager, a role nobody holds yet
    const otherProject = (await project(tenantAdmin)).id;
    const steel = (await goods(tenantAdmin)).id;
    const doc = await demand(tenantAdmin, otherProject, [demandRow(steel, 10, 100)], { title: '无人审批' });
    const refused = await enAdmin.post(`${DOC}/submit`, { id: doc.id });
    expect(refused.body).toMatchObject({ code: 400, success: false });
    expect(refused.body.msg).toBe(
      'Nobody active can handle 项目经理审批 (assignee, candidates or roles: project_manager), so the process cannot move on to it. Give the role users first, or change the handlers in the model designer',
    );
    expect((await tenantAdmin.post(`${DOC}/submit`, { id: doc.id })).body.msg).toContain('项目经理审批 没有可以处理的在职人员');
    expect(expectOk(await tenantAdmin.get(`${DOC}/detail`, { id: doc.id })).approvalStatus).toBe('draft');
    expect(records(await tenantAdmin.get(`${FLOW}/work/send-list`))).toEqual([]);

    // once someone holds the role, the same document goes through, and the role's grants came along
    expectOk(
      await tenantAdmin.post('/api/blade-system/user/save', {
        account: 'pm2',
        password: 'pm2pm2',
        name: '项目经理',
        realName: '赵经理',
        roleId: pmRole.id,
        status: 1,
      }),
    );
    const pm = await person(server, 'pm2', other.tenantId);
    expect((await pm.api.get('/api/blade-system/menu/routes')).body.data.map((r: any) => r.code)).toContain('work');
    const { processInstanceId: instanceId } = expectOk(await tenantAdmin.post(`${DOC}/submit`, { id: doc.id }));
    expect(await claimable(pm, instanceId)).toHaveLength(1);
    const inbox = records(await pm.api.get('/api/blade-message/message/my/list', { size: '50' }));
    // the message keeps its key and parameters: each reader reads it in their language
    expect(inbox.find((m) => m.type === '3')).toMatchObject({
      title: '【待审批】材料总需用计划审批: 无人审批',
      content: '项目经理审批: 材料总需用计划审批: 无人审批',
    });
    expect(records(await pm.en.get('/api/blade-message/message/my/list', { size: '50' })).find((m) => m.type === '3')).toMatchObject({
      title: '[To approve] 材料总需用计划审批: 无人审批',
      content: '项目经理审批 awaits you: 材料总需用计划审批: 无人审批',
    });
  });

  it('an administrator follows running instances and terminates one; the document can be resubmitted', async () => {
    const doc = await draft(1000, '终止');
    const { processInstanceId: instanceId } = await submit({ id: doc.id });
    const [running] = records(await admin.get(`${FLOW}/follow/list`, { processInstanceId: instanceId }));
    expect(running).toMatchObject({ processInstanceId: instanceId, activityId: 'pmApprove', startUser: '王晓明', businessTitle: '终止' });
    expect((await clerk.api.get(`${FLOW}/follow/list`)).status).toBe(403);
    expectOk(
      await admin.post(`${FLOW}/follow/delete-process-instance`, undefined, { processInstanceId: instanceId, deleteReason: '重复提交' }),
    );
    expect((await detail(doc.id)).approvalStatus).toBe('terminated');
    expect(await claimable(manager, instanceId)).toEqual([]);
    expect(records(await admin.get(`${FLOW}/follow/list`, { processInstanceId: instanceId }))).toEqual([]);
    expect((await submit({ id: doc.id })).approvalStatus).toBe('approving');
  });

  it("the OpenAPI document describes the flow API and each approval document's submit and recall", async () => {
    const doc = JSON.parse((await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body);
    const flowPaths = Object.keys(doc.paths).filter((p) => p.startsWith(FLOW));
    expect(flowPaths).toHaveLength(26);
    for (const path of flowPaths) {
      for (const method of Object.keys(doc.paths[path]))
        expect(server.routes.has(method.toUpperCase() as 'GET', path), `${method} ${path}`).toBe(true);
    }
    expect(doc.paths[`${FLOW}/work/todo-list`].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['processDefinitionName', 'beginDate', 'endDate']),
    );
    expect(doc.components.schemas.BladeFlow.properties.taskId).toBeDefined();
    const documents = Object.values(server.catalog.entities).filter((m) => m.workflow);
    expect(documents).not.toEqual([]);
    for (const model of documents) {
      expect(doc.paths[`${model.api}/submit`].post.summary, model.key).toContain('submit it for approval');
      expect(server.routes.has('POST', `${model.api}/recall`)).toBe(true);
      expect(doc.paths[`${model.api}/recall`].post.parameters[0]).toMatchObject({ name: 'id', required: true });
    }
    expect(doc.paths['/api/blade-system/user/submit'].post.summary).not.toContain('approval');
  });

  it('refuses bad input to the flow API with 400', async () => {
    expect((await manager.api.post(`${FLOW}/work/complete-task`, { flag: 'ok' })).status).toBe(400);
    expect((await manager.api.post(`${FLOW}/work/complete-task`, { taskId: '1', variables: [1] })).status).toBe(400);
    expect((await manager.api.post(`${FLOW}/work/complete-task`, { taskId: '1', variables: { 'bad name': 1 } })).status).toBe(400);
    expect((await manager.api.get(`${FLOW}/work/todo-list`, { size: '100000' })).status).toBe(400);
    expect((await manager.api.get(`${FLOW}/process/model-view`, { processInstanceId: 'abc' })).status).toBe(400);
    expect((await manager.api.get(`${FLOW}/model/list`)).status).toBe(403);
  });
});

/** A fresh PostgreSQL database and two apps on it, each with its own connection pool. */
async function twoServersOnPostgres() {
  const adminUrl = inject('postgresUrl');
  const name = `zs_test_${randomBytes(6).toString('hex')}`;
  const root = new pg.Client({ connectionString: adminUrl });
  await root.connect();
  await root.query(`CREATE DATABASE ${name}`);
  await root.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const first = await createApp(testConfig(), { db: await openPostgres(url.toString(), { max: 5 }), logger: false });
  const second = await createApp(testConfig(), { db: await openPostgres(url.toString(), { max: 5 }), logger: false });
  return {
    first,
    second,
    async dispose() {
      await first.close();
      await second.close();
      await first.db.close();
      await second.db.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

// only where a PostgreSQL server is available (the embedded database is one process by nature)
if (databaseKinds().includes('postgres'))
  describe('two servers on one PostgreSQL', () => {
    it('complete the parallel tasks of the same 100 instances at once and lose no step', async () => {
      const { first, second, dispose } = await twoServersOnPostgres();
      try {
        const xml = processXml('parallelReview', '并行审核', [
          startEvent('start'),
          parallel('fork'),
          userTask('finance', { name: '财务', assignee: 'manager' }),
          userTask('legal', { name: '法务', assignee: 'costmgr' }),
          parallel('join'),
          userTask('boss', { name: '总经理', assignee: 'admin' }),
          endEvent('end'),
          flow('f1', 'start', 'fork'),
          flow('f2', 'fork', 'finance'),
          flow('f3', 'fork', 'legal'),
          flow('f4', 'finance', 'join'),
          flow('f5', 'legal', 'join'),
          flow('f6', 'join', 'boss'),
          flow('f7', 'boss', 'end'),
        ]);
        const definition = await first.flow.definitions.deploy({
          tenantId: '000000',
          xml,
          source: 'upload',
          resourceName: 'parallel.bpmn',
          userId: null,
        });
        const adminActor = { tenantId: '000000', userId: '1123598821738675201', deptId: null, lang: 'zh' as const };
        for (let i = 0; i < 100; i++) {
          await first.db.transaction((tx) => first.flow.runtime.start(tx, adminActor, definition, {}));
        }
        const [managerPerson, costPerson] = [await person(first, 'manager'), await person(second, 'costmgr')];
        const tasksOf = async (userId: string) =>
          (
            await first.db.query<{ id: string }>(
              `SELECT t.id::text AS id FROM wf_task t WHERE t.definition_id = $1 AND t.assignee_id = $2 AND t.status = 'active' ORDER BY t.instance_id`,
              [definition.id, userId],
            )
          ).map((r) => r.id);
        const financeTasks = await tasksOf(managerPerson.id);
        const legalTasks = await tasksOf(costPerson.id);
        expect(financeTasks).toHaveLength(100);
        expect(legalTasks).toHaveLength(100);
        const completeAll = async (api: Api, ids: string[]) => {
          const codes: number[] = [];
          for (let i = 0; i < ids.length; i += 4) {
            codes.push(
              ...(
                await Promise.all(ids.slice(i, i + 4).map((taskId) => api.post(`${FLOW}/work/complete-task`, { taskId, flag: 'ok' })))
              ).map((r) => r.body.code),
            );
          }
          return codes;
        };
        // manager's requests go to the first server, the cost manager's to the second, interleaved
        const [a, b] = await Promise.all([completeAll(managerPerson.api, financeTasks), completeAll(costPerson.api, legalTasks)]);
        expect([...a, ...b].every((c) => c === 200)).toBe(true);
        const [outcome] = await first.db.query<{ boss: number; stuck: number }>(
          `SELECT (SELECT count(*)::int FROM wf_task WHERE definition_id = $1 AND activity_id = 'boss' AND status = 'active') AS boss,
                (SELECT count(*)::int FROM wf_instance i WHERE i.definition_id = $1 AND NOT EXISTS (
                   SELECT 1 FROM wf_task t WHERE t.instance_id = i.id AND t.status = 'active')) AS stuck`,
          [definition.id],
        );
        expect(outcome).toEqual({ boss: 100, stuck: 0 });
        console.log(`version conflicts retried: ${first.flow.runtime.retries + second.flow.runtime.retries}`);
      } finally {
        await dispose();
      }
    });

    it('two servers claiming the same tasks: exactly one winner each', async () => {
      const { first, second, dispose } = await twoServersOnPostgres();
      try {
        const definition = await first.flow.definitions.deploy({
          tenantId: '000000',
          xml: chain('claimRace', ['project_manager']),
          source: 'upload',
          resourceName: 'race.bpmn',
          userId: null,
        });
        const adminActor = { tenantId: '000000', userId: '1123598821738675201', deptId: null, lang: 'zh' as const };
        for (let i = 0; i < 30; i++) await first.db.transaction((tx) => first.flow.runtime.start(tx, adminActor, definition, {}));
        const tasks = (
          await first.db.query<{ id: string }>(`SELECT id::text AS id FROM wf_task WHERE definition_id = $1`, [definition.id])
        ).map((r) => r.id);
        const onFirst = await person(first, 'manager');
        const onSecond = client(second as TestServer, onFirst.token);
        const results = await Promise.all(
          tasks.flatMap((taskId) => [
            onFirst.api.post(`${FLOW}/work/claim-task`, undefined, { taskId }),
            onSecond.post(`${FLOW}/work/claim-task`, undefined, { taskId }),
          ]),
        );
        const wins = results.filter((r) => r.body.code === 200).length;
        expect(wins).toBe(tasks.length);
      } finally {
        await dispose();
      }
    });
  });
