// In-app messages: who receives each type, who sees what (recipient, sender, other user, other
// tenant), read state and counts, read-all, removal, bad input, and live delivery over server-sent
// events — within one process, and across two server processes on one PostgreSQL database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import { textRef } from '../../src/engine/i18n/stored-text.ts';
import { sendSystemMessage } from '../../src/server/modules/message/service.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';
import { subscribeLive } from './sse-client.ts';

interface Person {
  id: string;
  api: Api;
  token: string;
}

const BASE = '/api/blade-message/message';
/** How long a live event may take to arrive: far above its delivery on a loaded machine; a bound, not a timing. */
const LIVE_MS = 10_000;

describe.each(databaseKinds())('messages on %s', (kind) => {
  let server: TestServer;
  let admin: Person;
  let clerk: Person;
  let costmgr: Person;
  let manager: Person;
  let center: Person;
  let ids: { co1: string; co2: string; hq: string; costManagerRole: string; clerkRole: string };
  let other: { api: Api; tenantId: string; adminId: string; token: string };

  async function person(account: string): Promise<Person> {
    const [u] = await server.db.query(
      `SELECT u.id::text AS id, u.dept_id AS "deptId", u.role_id AS "roleId", r.role_alias AS alias FROM blade_user u
         JOIN blade_role r ON r.id::text = split_part(u.role_id, ',', 1) WHERE u.tenant_id = '000000' AND u.account = $1`,
      [account],
    );
    const token = await server.token({ user_id: u.id, dept_id: u.deptId, role_id: u.roleId, role_name: u.alias, account });
    return { id: u.id, token, api: client(server, token) };
  }

  const send = async (from: Person | Api, message: Record<string, unknown>) => {
    const api = 'api' in from ? from.api : from;
    return api.post(`${BASE}/save`, { title: '材料进场验收通知', content: '请于周五前完成钢筋进场验收。', ...message });
  };
  const sent = async (from: Person, message: Record<string, unknown>) => {
    const res = await send(from, message);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
    return res.body.data as Record<string, any>;
  };
  const top = async (who: Person) => (await who.api.get(`${BASE}/my/topList`)).body.data as { messageList: any[]; unReadCount: number };
  const inboxIds = async (who: Person, query: Record<string, string> = {}) =>
    ((await who.api.get(`${BASE}/my/list`, { size: '50', ...query })).body.data.records as any[]).map((r) => r.id as string);
  const messageCount = async () => Number((await server.db.query(`SELECT count(*)::int AS n FROM blade_message`))[0].n);

  beforeAll(async () => {
    server = await startServer(kind);
    [admin, clerk, costmgr, manager, center] = await Promise.all(['admin', 'clerk', 'costmgr', 'manager', 'center'].map(person));
    const dept = async (name: string) =>
      (await server.db.query(`SELECT id::text AS id FROM blade_dept WHERE tenant_id = '000000' AND dept_name = $1`, [name]))[0]
        .id as string;
    const role = async (alias: string) =>
      (await server.db.query(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = $1`, [alias]))[0]
        .id as string;
    ids = {
      co1: await dept('第一工程公司'),
      co2: await dept('市政工程公司'),
      hq: await dept('筑算建设集团'),
      costManagerRole: await role('cost_manager'),
      clerkRole: await role('project_clerk'),
    };
    const b = await server.newTenant('乙建设公司');
    other = { api: client(server, b.token), tenantId: b.tenantId, adminId: b.adminId, token: b.token };
  });
  afterAll(() => server?.dispose());

  describe('recipients of each type', () => {
    it('1 ordinary: exactly the chosen users', async () => {
      const m = await sent(admin, { type: '1', receiverIds: `${clerk.id},${center.id}`, title: '普通消息-收件人' });
      expect(m.createUserName).toBe('管理员');
      expect(await inboxIds(clerk)).toContain(m.id);
      expect(await inboxIds(center)).toContain(m.id);
      expect(await inboxIds(costmgr)).not.toContain(m.id);
      expect(await inboxIds(admin)).not.toContain(m.id);
    });

    it('2 department broadcast: the department and its sub-departments, not the sender', async () => {
      const co1 = await sent(admin, { type: '2', deptIds: ids.co1, title: '部门广播-第一工程公司' });
      for (const p of [clerk, costmgr, manager]) expect(await inboxIds(p)).toContain(co1.id);
      expect(await inboxIds(center)).not.toContain(co1.id);

      // the clerk has no message_add button: only those who may send do
      const refused = await send(clerk, { type: '2', deptIds: ids.hq, title: '部门广播-集团' });
      expect(refused.status).toBe(403);
      const hq = await sent(admin, { type: '2', deptIds: ids.hq, title: '部门广播-集团' });
      for (const p of [clerk, costmgr, manager, center]) expect(await inboxIds(p)).toContain(hq.id);
      expect(await inboxIds(admin)).not.toContain(hq.id);
      const detail = (await admin.api.get(`${BASE}/sendDetail`, { id: hq.id })).body.data;
      expect(detail).toMatchObject({ receiverCount: 4, readCount: 0 });
    });

    it('4 role broadcast: every holder of the roles', async () => {
      const m = await sent(admin, { type: '4', roleIds: ids.costManagerRole, title: '角色广播-成本经理' });
      expect(await inboxIds(costmgr)).toContain(m.id);
      for (const p of [clerk, manager, center]) expect(await inboxIds(p)).not.toContain(m.id);
    });

    it('3 approval: sent by the system to the users a task reached; nobody may send one through the API', async () => {
      const refused = await send(admin, { type: '3', receiverIds: manager.id, title: '冒充审批' });
      expect(refused.status).toBe(400);
      expect(refused.body.data.errors).toEqual([{ path: '/type', message: '审批消息只能由系统发送' }]);

      const subject = { zh: '材料总需用计划', en: 'Total material demand' };
      const m = await sendSystemMessage(server.ctx, {
        tenantId: '000000',
        receiverIds: [manager.id],
        title: textRef('workflow.noticeTodoTitle', { subject }),
        content: textRef('workflow.noticeTodo', { task: '项目经理审批', subject }),
        path: '/work/process/materialTotalDemand/handle/1/2/3',
      });
      expect(m).toMatchObject({ type: '3', createUserName: '系统', createUser: '0' });
      const got = (await manager.api.get(`${BASE}/detail`, { id: m.id })).body.data;
      expect(got).toMatchObject({
        title: '【待审批】材料总需用计划',
        content: '项目经理审批: 材料总需用计划',
        path: '/work/process/materialTotalDemand/handle/1/2/3',
        isRead: 0,
      });
      expect(await inboxIds(clerk)).not.toContain(m.id);
    });

    it("a system message is stored as its key and parameters and read in each reader's language: detail, inbox, bell", async () => {
      const m = await sendSystemMessage(server.ctx, {
        tenantId: '000000',
        receiverIds: [manager.id],
        title: textRef('workflow.noticeRejectedTitle', { subject: 'ZCHT-NJ-2026-004' }),
        content: textRef('workflow.noticeRejected', { subject: 'ZCHT-NJ-2026-004', remark: ': 单价偏高' }),
      });
      const [stored] = await server.db.query(`SELECT title, content FROM blade_message WHERE id = $1`, [m.id]);
      expect(JSON.parse(String(stored.title))).toEqual({ key: 'workflow.noticeRejectedTitle', params: { subject: 'ZCHT-NJ-2026-004' } });
      const english = client(server, manager.token, 'en');
      const detail = (await english.get(`${BASE}/detail`, { id: m.id })).body.data;
      expect(detail).toMatchObject({ title: '[Rejected] ZCHT-NJ-2026-004', content: 'ZCHT-NJ-2026-004 was rejected: 单价偏高' });
      const bell = (await english.get(`${BASE}/my/topList`)).body.data.messageList.find((r: any) => r.id === m.id);
      expect(bell.title).toBe('[Rejected] ZCHT-NJ-2026-004');
      const inbox = (await manager.api.get(`${BASE}/my/list`, { size: '50' })).body.data.records.find((r: any) => r.id === m.id);
      expect(inbox).toMatchObject({ title: '【已驳回】ZCHT-NJ-2026-004', content: 'ZCHT-NJ-2026-004 已驳回: 单价偏高' });
    });
  });

  describe('visibility', () => {
    let m: Record<string, any>;
    beforeAll(async () => {
      m = await sent(admin, { type: '1', receiverIds: clerk.id, title: '只给王晓明' });
    });

    it('the recipient reads it; another user, another tenant and anonymous callers do not', async () => {
      expect((await clerk.api.get(`${BASE}/detail`, { id: m.id })).body.data.title).toBe('只给王晓明');
      const otherUser = await costmgr.api.get(`${BASE}/detail`, { id: m.id });
      expect(otherUser.status).toBe(404);
      expect(otherUser.body.msg).toBe('消息管理不存在');
      expect((await costmgr.api.get(`${BASE}/sendDetail`, { id: m.id })).status).toBe(404);
      expect((await other.api.get(`${BASE}/detail`, { id: m.id })).status).toBe(404);
      expect((await other.api.get(`${BASE}/sendDetail`, { id: m.id })).status).toBe(404);
      expect(await inboxIds({ ...admin, api: other.api })).not.toContain(m.id);
      expect((await client(server).get(`${BASE}/my/topList`)).status).toBe(401);
    });

    it("the sender sees it in the sent list with read counts, and each recipient's state in sendDetail", async () => {
      const list = (await admin.api.get(`${BASE}/my/sendList`, { title: '只给王晓明' })).body.data;
      expect(list.records).toHaveLength(1);
      expect(list.records[0]).toMatchObject({ id: m.id, receiverCount: 1 });
      expect((await clerk.api.get(`${BASE}/my/sendList`)).body.data.records.map((r: any) => r.id)).not.toContain(m.id);
      const detail = (await admin.api.get(`${BASE}/sendDetail`, { id: m.id })).body.data;
      expect(detail.receivers).toEqual([expect.objectContaining({ userId: clerk.id, realName: '王晓明' })]);
    });

    it("another tenant's messages stay in that tenant, whatever ids it names", async () => {
      const theirDept = (await server.db.query(`SELECT id::text AS id FROM blade_dept WHERE tenant_id = $1`, [other.tenantId]))[0].id;
      const broadcast = await other.api.post(`${BASE}/save`, { type: '2', deptIds: theirDept, title: '乙公司通知', content: '内部通知' });
      // the only user of that department is its sender: nobody receives it, nothing is stored
      expect(broadcast.status).toBe(400);
      const crossing = await other.api.post(`${BASE}/save`, { type: '1', receiverIds: clerk.id, title: '越界', content: '越界' });
      expect(crossing.status).toBe(400);
      expect(crossing.body.data.errors[0]).toMatchObject({ path: '/receiverIds' });
      expect((await other.api.post(`${BASE}/remove`, undefined, { ids: m.id })).status).toBe(404);
      expect((await other.api.post(`${BASE}/update`, { id: m.id, title: '篡改' })).status).toBe(404);
      expect((await clerk.api.get(`${BASE}/detail`, { id: m.id })).body.data.title).toBe('只给王晓明');
    });
  });

  describe('read state and counts', () => {
    it('opening a message marks it read and the unread count drops; read-all reads the rest', async () => {
      const before = await top(manager);
      const a = await sent(admin, { type: '1', receiverIds: manager.id, title: '未读一' });
      const b = await sent(admin, { type: '1', receiverIds: manager.id, title: '未读二' });
      const withTwo = await top(manager);
      expect(withTwo.unReadCount).toBe(before.unReadCount + 2);
      expect(withTwo.messageList[0]).toMatchObject({ id: b.id, title: '未读二', isRead: 1, createUserName: '管理员' });
      expect(withTwo.messageList[1]).toMatchObject({ id: a.id, isRead: 1 });

      const opened = (await manager.api.get(`${BASE}/detail`, { id: a.id })).body.data;
      expect(opened).toMatchObject({ id: a.id, content: '请于周五前完成钢筋进场验收。', isRead: 0 });
      expect(opened.readTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect((await top(manager)).unReadCount).toBe(before.unReadCount + 1);
      expect(await inboxIds(manager, { isRead: '1' })).toContain(b.id);
      expect(await inboxIds(manager, { isRead: '1' })).not.toContain(a.id);
      // the sender sees one of one read
      expect((await admin.api.get(`${BASE}/sendDetail`, { id: a.id })).body.data).toMatchObject({ receiverCount: 1, readCount: 1 });

      const readAll = await manager.api.post(`${BASE}/readAll`);
      expect(readAll.body).toMatchObject({ code: 200, success: true });
      expect((await top(manager)).unReadCount).toBe(0);
      expect(await inboxIds(manager, { isRead: '1' })).toEqual([]);
      // another user's unread messages are untouched
      expect((await top(clerk)).unReadCount).toBeGreaterThan(0);
    });

    it('my/list pages (sizes 10, 20, 30, 50) and filters by title and type', async () => {
      for (let i = 0; i < 12; i++) await sent(admin, { type: '1', receiverIds: center.id, title: `分页消息${i}` });
      const page2 = (await center.api.get(`${BASE}/my/list`, { current: '2', size: '10', title: '分页消息' })).body.data;
      expect(page2).toMatchObject({ total: 12, current: 2, size: 10, pages: 2 });
      expect(page2.records).toHaveLength(2);
      const byType = (await center.api.get(`${BASE}/my/list`, { size: '50', type: '2' })).body.data.records as any[];
      expect(byType.length).toBeGreaterThan(0);
      expect(byType.every((r) => r.type === '2')).toBe(true);
      const bad = await center.api.get(`${BASE}/my/list`, { isRead: 'maybe' });
      expect(bad.status).toBe(400);
    });
  });

  describe('removal', () => {
    it('a recipient removes their own copy; the others keep theirs', async () => {
      const m = await sent(admin, { type: '1', receiverIds: `${clerk.id},${costmgr.id}`, title: '删除自己的' });
      const res = await clerk.api.post(`${BASE}/remove`, undefined, { ids: m.id });
      expect(res.body).toMatchObject({ code: 200, msg: '删除成功' });
      expect(await inboxIds(clerk)).not.toContain(m.id);
      expect(await inboxIds(costmgr)).toContain(m.id);
    });

    it('another user cannot remove a message they neither received nor sent; nothing changes', async () => {
      const m = await sent(admin, { type: '1', receiverIds: clerk.id, title: '别人的消息' });
      const res = await manager.api.post(`${BASE}/remove`, undefined, { ids: `${m.id}` });
      expect(res.status).toBe(403);
      expect(res.body.msg).toBe('没有删除消息管理的权限');
      expect(await inboxIds(clerk)).toContain(m.id);
    });

    it('the sender withdraws a message from every inbox', async () => {
      const m = await sent(admin, { type: '1', receiverIds: `${clerk.id},${costmgr.id}`, title: '撤回的消息' });
      expect((await admin.api.post(`${BASE}/remove`, undefined, { ids: m.id })).body.code).toBe(200);
      expect(await inboxIds(clerk)).not.toContain(m.id);
      expect(await inboxIds(costmgr)).not.toContain(m.id);
      expect((await clerk.api.get(`${BASE}/detail`, { id: m.id })).status).toBe(404);
    });

    it('the sender corrects the text; type and recipients stay as sent', async () => {
      const m = await sent(admin, { type: '1', receiverIds: clerk.id, title: '错字消息' });
      const res = await admin.api.post(`${BASE}/update`, { id: m.id, title: '更正后的消息', type: '4', receiverIds: costmgr.id });
      expect(res.body).toMatchObject({ code: 200, data: { title: '更正后的消息', type: '1', receiverIds: clerk.id } });
      expect((await clerk.api.get(`${BASE}/detail`, { id: m.id })).body.data.title).toBe('更正后的消息');
      expect(await inboxIds(costmgr)).not.toContain(m.id);
      expect((await clerk.api.post(`${BASE}/update`, { id: m.id, title: '收件人改标题' })).status).toBe(403);
    });
  });

  describe('bad input: a clear message, nothing stored', () => {
    it('missing fields, in Chinese and English', async () => {
      const n = await messageCount();
      const zh = await admin.api.post(`${BASE}/save`, { type: '1', receiverIds: clerk.id, content: '没有标题' });
      expect(zh.status).toBe(400);
      expect(zh.body.data.errors).toContainEqual({ path: '/title', message: '消息标题不能为空' });
      const en = await client(server, admin.token, 'en').post(`${BASE}/save`, { type: '2', title: 'No departments', content: 'x' });
      expect(en.status).toBe(400);
      expect(en.body.data.errors).toContainEqual({ path: '/deptIds', message: 'Departments is required' });
      expect(await messageCount()).toBe(n);
    });

    it('nobody to receive it: refused and not stored', async () => {
      const n = await messageCount();
      const res = await send(admin, { type: '2', deptIds: ids.co2 });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('没有符合条件的消息接收人(只发给本租户正常状态的用户)');
      expect(await messageCount()).toBe(n);
    });

    it('unknown type, malformed ids, unknown users', async () => {
      const n = await messageCount();
      expect((await send(admin, { type: '9', receiverIds: clerk.id })).status).toBe(400);
      expect((await send(admin, { type: '1', receiverIds: 'abc' })).status).toBe(400);
      expect((await send(admin, { type: '1', receiverIds: '123456789' })).body.data.errors[0].path).toBe('/receiverIds');
      expect((await admin.api.get(`${BASE}/detail`, { id: 'x' })).status).toBe(400);
      expect((await admin.api.post(`${BASE}/remove`)).status).toBe(400);
      expect(await messageCount()).toBe(n);
    });
  });

  describe('notices', () => {
    const NOTICE = '/api/blade-desk/notice';

    it('the desk manages notices with category and publish date; every user of the tenant reads the published ones', async () => {
      const published = (
        await admin.api.post(`${NOTICE}/submit`, {
          title: '安全生产月活动通知',
          category: '1',
          releaseTime: '2026-06-01',
          content: '六月为安全生产月。',
        })
      ).body.data;
      const future = (
        await admin.api.post(`${NOTICE}/submit`, { title: '明年的通知', category: '6', releaseTime: '2099-01-01', content: '尚未发布。' })
      ).body.data;
      expect(published).toMatchObject({ category: '1', releaseTime: '2026-06-01' });
      expect((await admin.api.get(`${NOTICE}/detail`, { id: published.id })).body.data.content).toBe('六月为安全生产月。');
      expect((await admin.api.get(`${NOTICE}/list`, { title: '通知', size: '50' })).body.data.records.map((r: any) => r.id)).toEqual(
        expect.arrayContaining([published.id, future.id]),
      );

      // the clerk has no desk menu: the management list is closed, the home page's list is open
      expect((await clerk.api.get(`${NOTICE}/list`)).status).toBe(403);
      const home = (await clerk.api.get(`${NOTICE}/top`, { size: '10' })).body.data;
      const titles = home.records.map((r: any) => r.title);
      expect(titles).toContain('安全生产月活动通知');
      expect(titles).not.toContain('明年的通知');
      expect(home.records.map((r: any) => r.releaseTime)).toEqual([...home.records.map((r: any) => r.releaseTime)].sort().reverse());
      expect((await other.api.get(`${NOTICE}/top`)).body.data.records.map((r: any) => r.id)).not.toContain(published.id);

      const bad = await admin.api.post(`${NOTICE}/submit`, { title: '没有类型', category: '99', content: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.data.errors).toEqual([{ path: '/releaseTime', message: '发布日期不能为空' }]);
      const unknown = await admin.api.post(`${NOTICE}/submit`, {
        title: '未知类型',
        category: '99',
        releaseTime: '2026-06-01',
        content: 'x',
      });
      expect(unknown.body.data.errors).toEqual([{ path: '/category', message: '通知类型的值 99 不在字典 notice 中' }]);
      expect((await admin.api.post(`${NOTICE}/remove`, undefined, { ids: future.id })).body.code).toBe(200);
    });
  });

  describe('live delivery', () => {
    let base: string;
    beforeAll(async () => {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const address = server.app.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      base = `http://127.0.0.1:${address.port}`;
    });

    it('a subscription needs a token', async () => {
      const res = await fetch(`${base}${BASE}/subscribe`);
      expect(res.status).toBe(401);
    });

    it("a message reaches the recipient's open stream, and no one else's", async () => {
      const mine = await subscribeLive(base, clerk.token);
      const theirs = await subscribeLive(base, costmgr.token);
      const otherTenant = await subscribeLive(base, other.token);
      try {
        expect(mine.status).toBe(200);
        await mine.next('ready');
        await theirs.next('ready');
        const m = await sent(admin, { type: '1', receiverIds: clerk.id, title: '实时消息' });
        const event = await mine.next('message', LIVE_MS);
        expect(event.data).toMatchObject({ id: m.id, title: '实时消息', type: '1', createUserName: '管理员' });
        // opening it tells the recipient's other tabs to refresh their count
        await clerk.api.get(`${BASE}/detail`, { id: m.id });
        await mine.next('changed', LIVE_MS);
        // a bounded negative check (nothing to wait for can prove an absence): a misrouted event
        // would have left this one process with the two that reached `mine`, which have arrived
        await new Promise((r) => setTimeout(r, 200));
        expect(theirs.events.map((e) => e.name)).toEqual(['ready']);
        expect(otherTenant.events.map((e) => e.name)).toEqual(['ready']);
      } finally {
        mine.close();
        theirs.close();
        otherTenant.close();
      }
    });

    it("a department broadcast reaches every member's stream; a failed send reaches nobody", async () => {
      const streams = await Promise.all([clerk, costmgr, manager].map((p) => subscribeLive(base, p.token)));
      try {
        await Promise.all(streams.map((s) => s.next('ready')));
        await send(admin, { type: '2', deptIds: ids.co2, title: '没人收' });
        const m = await sent(admin, { type: '2', deptIds: ids.co1, title: '实时广播' });
        for (const s of streams) expect((await s.next('message', LIVE_MS)).data.id).toBe(m.id);
        for (const s of streams) expect(s.events.filter((e) => e.name === 'message')).toHaveLength(1);
      } finally {
        streams.forEach((s) => s.close());
      }
    });

    it('the stream ends when the token expires', async () => {
      // a few seconds of life: on a busy machine a one-second token could expire before the stream opens
      const token = await server.tokens.sign({ tenant_id: '000000', user_id: clerk.id }, 3);
      const s = await subscribeLive(base, token);
      await s.next('ready');
      await s.next('expired', 8000);
      await s.ended;
    });
  });

  if (kind === 'postgres') {
    describe('two server processes on one PostgreSQL database', () => {
      let second: App;
      let bases: string[];
      beforeAll(async () => {
        const url = (server.db as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
        second = await createApp(testConfig(), { db: await openPostgres(url, { max: 3 }), logger: false });
        bases = [];
        for (const app of [server.app, second.app]) {
          if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
          const address = app.server.address();
          if (!address || typeof address === 'string') throw new Error('no address');
          bases.push(`http://127.0.0.1:${address.port}`);
        }
      });
      afterAll(async () => {
        await second?.close();
        await second?.db.close();
      });

      it('a message saved on one process reaches a subscriber on the other', async () => {
        const onSecond = await subscribeLive(bases[1], clerk.token);
        const onFirst = await subscribeLive(bases[0], costmgr.token);
        try {
          await onSecond.next('ready');
          await onFirst.next('ready');
          const m = await sent(admin, { type: '1', receiverIds: `${clerk.id},${costmgr.id}`, title: '跨进程消息' });
          const there = await onSecond.next('message', LIVE_MS);
          expect(there.data).toMatchObject({ id: m.id, title: '跨进程消息' });
          expect((await onFirst.next('message', LIVE_MS)).data.id).toBe(m.id);

          // and the other way round: sent through the second process
          const viaSecond = await client({ ...server, app: second.app } as TestServer, admin.token).post(`${BASE}/save`, {
            type: '1',
            receiverIds: costmgr.id,
            title: '从二号进程发出',
            content: '跨进程',
          });
          expect(viaSecond.body.code).toBe(200);
          expect((await onFirst.next('message', LIVE_MS)).data.title).toBe('从二号进程发出');
        } finally {
          onSecond.close();
          onFirst.close();
        }
      });

      it('a listener whose connection is killed reconnects and its subscribers are told to refresh', async () => {
        const stream = await subscribeLive(bases[1], clerk.token);
        try {
          await stream.next('ready');
          await server.db.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
          );
          await stream.next('refresh', 8000);
          const m = await sent(admin, { type: '1', receiverIds: clerk.id, title: '重连之后' });
          expect((await stream.next('message', LIVE_MS)).data.id).toBe(m.id);
        } finally {
          stream.close();
        }
      });
    });
  }
});
