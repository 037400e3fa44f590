// Every kind of bad input answers 400 with a message naming the field in the caller's language,
// and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type TestServer } from './harness.ts';
import { count, partyA, project } from './fixtures.ts';
import { MAX_PAGE_SIZE } from '../../src/engine/query/list-params.ts';

const LIST = '/api/construct/project/list';
const SAVE = '/api/construct/project/save';

describe.each(databaseKinds())('bad input on %s', (kind) => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let en: ReturnType<typeof client>;
  let valid: Record<string, unknown>;
  let before: number;

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    api = client(server, token);
    en = client(server, token, 'en');
    const owner = await partyA(api);
    valid = {
      name: '苏州工业园区科创中心',
      projectType: 'building',
      partyAId: owner.id,
      targetCost: 56_000_000,
      plannedStartDate: '2026-04-01',
      plannedEndDate: '2027-06-30',
      projectManagerName: '周敏',
      projectStatus: 'preparing',
    };
    await project(api);
    before = await count(api, LIST);
  });
  afterAll(() => server?.dispose());

  async function expectRefused(res: { status: number; body: any }, zhText: RegExp) {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.msg).toMatch(zhText);
    expect(await count(api, LIST)).toBe(before);
  }

  it('an unknown filter field', async () => {
    await expectRefused(await api.get(LIST, { colour_equal: 'red' }), /不支持按 colour_equal 查询/);
    expect((await en.get(LIST, { colour: 'red' })).body.msg).toBe('Cannot filter by colour');
  });

  it('an unknown sort field', async () => {
    await expectRefused(await api.get(LIST, { descs: 'name;drop table x' }), /不支持按 name;drop table x 排序/);
  });

  it('a malformed id', async () => {
    await expectRefused(await api.get('/api/construct/project/detail', { id: '1 or 1=1' }), /参数 id 不是有效的编号/);
    await expectRefused(await api.post('/api/construct/project/remove', undefined, { ids: '1,abc' }), /参数 ids 不是有效的编号: abc/);
  });

  it('a filter value of the wrong type', async () => {
    await expectRefused(await api.get(LIST, { targetCost_ge: 'lots' }), /查询条件 目标成本 的值无效/);
    await expectRefused(await api.get(LIST, { createTime_datege: '2026-13-01' }), /创建时间/);
  });

  it('a wrong type in the record', async () => {
    await expectRefused(await api.post(SAVE, { ...valid, targetCost: 'a lot' }), /目标成本的类型不正确,应为数字/);
    const res = await en.post(SAVE, { ...valid, targetCost: true });
    expect(res.body.msg).toBe('Target cost must be a number');
  });

  it('a missing required field, named in zh and en, with its path', async () => {
    const { name: _n, ...rest } = valid;
    const res = await api.post(SAVE, rest);
    await expectRefused(res, /^项目名称不能为空$/);
    expect(res.body.data.errors).toEqual([{ path: '/name', message: '项目名称不能为空' }]);
    expect((await en.post(SAVE, rest)).body.msg).toBe('Project name is required');
  });

  it('an over-long string', async () => {
    await expectRefused(await api.post(SAVE, { ...valid, name: '长'.repeat(101) }), /项目名称不能超过100个字符/);
  });

  it('an invalid date', async () => {
    await expectRefused(await api.post(SAVE, { ...valid, plannedStartDate: '2026-02-30' }), /计划开工日期的格式不正确,应为日期 yyyy-MM-dd/);
  });

  it('an unknown dictionary value', async () => {
    await expectRefused(await api.post(SAVE, { ...valid, projectType: 'spaceship' }), /工程类别的值 spaceship 不在字典 project_type 中/);
  });

  it('a reference to a record that does not exist in the tenant', async () => {
    await expectRefused(await api.post(SAVE, { ...valid, partyAId: '123456789' }), /建设单位\(甲方\)引用的记录不存在: 123456789/);
    const other = client(server, (await server.newTenant()).token);
    const foreignOwner = await other.post('/api/construct/partyA/save', { name: '别家甲方', status: 'enabled' });
    expect(foreignOwner.body.code).toBe(200);
    await expectRefused(await api.post(SAVE, { ...valid, partyAId: foreignOwner.body.data.id }), /引用的记录不存在/);
  });

  it('a body that is not JSON, or not an object', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: SAVE,
      payload: '{"name":',
      headers: { 'content-type': 'application/json', 'blade-auth': `bearer ${await server.token()}` },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 400, success: false, msg: '请求体不是有效的 JSON' });
    await expectRefused(await api.post(SAVE, [valid]), /请求体不是有效的 JSON/);
  });

  it('a duplicate of a unique field', async () => {
    const first = await api.post(SAVE, { ...valid, name: '唯一名称项目' });
    expect(first.body.code).toBe(200);
    before += 1;
    await expectRefused(await api.post(SAVE, { ...valid, name: '唯一名称项目' }), /项目名称 唯一名称项目 已存在/);
  });

  it('treats SQL in any parameter as plain text', async () => {
    const res = await api.get(LIST, { name: "'; DROP TABLE construct_project; --", code_like: "%' OR '1'='1" });
    expect(res.body).toMatchObject({ code: 200, data: { total: 0 } });
    const saved = await api.post(SAVE, { ...valid, name: "Robert'); DROP TABLE construct_project;--" });
    expect(saved.body.code).toBe(200);
    before += 1;
    expect(saved.body.data.name).toBe("Robert'); DROP TABLE construct_project;--");
    expect(await count(api, LIST)).toBe(before);
  });

  it('a body of another type than JSON', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: SAVE,
      payload: 'name=x',
      headers: { 'content-type': 'text/csv', 'blade-auth': `bearer ${await server.token()}` },
    });
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body)).toMatchObject({ code: 415, success: false, msg: '不支持的请求体类型 text/csv,请使用 application/json' });
    expect(await count(api, LIST)).toBe(before);
  });

  it('a body over the size limit, refused with 413 and the limit named', async () => {
    const res = await api.post(SAVE, { ...valid, remark: 'x'.repeat(6 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 413, success: false, msg: '请求体超过 5 MB 的上限' });
    expect(await count(api, LIST)).toBe(before);
  });

  it('numbers too large for their column', async () => {
    // 1e400 is Infinity to JSON.parse; 1e300 is finite but no money column holds it
    for (const huge of ['1e400', '-1e400', '1e300']) {
      const res = await server.app.inject({
        method: 'POST',
        url: SAVE,
        payload: JSON.stringify({ ...valid, targetCost: 0 }).replace('"targetCost":0', `"targetCost":${huge}`),
        headers: { 'content-type': 'application/json', 'blade-auth': `bearer ${await server.token()}` },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ code: 400, success: false, msg: expect.stringMatching(/目标成本/) });
    }
    expect(await count(api, LIST)).toBe(before);
  });

  it('text the database cannot keep: NUL and unpaired surrogates, in the body or the query', async () => {
    await expectRefused(await api.post(SAVE, { ...valid, name: '科创\u0000中心' }), /^\/name 含有不允许的字符/);
    await expectRefused(await api.post(SAVE, { ...valid, name: '科创\ud83d中心' }), /^\/name 含有不允许的字符/);
    await expectRefused(await api.post(SAVE, { ...valid, name: '科创\ude00中心' }), /含有不允许的字符/);
    await expectRefused(await api.post(SAVE, { ...valid, ['bad\u0000key']: 1 }), /含有不允许的字符/);
    await expectRefused(await api.get(LIST, { name: 'a\u0000b' }), /^\?name 含有不允许的字符/);
    expect((await en.get(LIST, { name: 'a\u0000b' })).body.msg).toBe(
      '?name contains a character that is not allowed (a NUL or an unpaired surrogate)',
    );
  });

  it('keeps whole characters outside the basic plane, and right-to-left and combining marks, as sent', async () => {
    const name = '𠀀𩸽楼 🏗️ مشروع e\u0301';
    const saved = await api.post(SAVE, { ...valid, name });
    expect(saved.body.code).toBe(200);
    before += 1;
    expect((await api.get('/api/construct/project/detail', { id: saved.body.data.id })).body.data.name).toBe(name);
  });

  it('bad paging parameters', async () => {
    await expectRefused(await api.get(LIST, { current: '0' }), /分页参数 current 无效/);
    await expectRefused(await api.get(LIST, { size: '-5' }), /分页参数 size 无效/);
    // MAX_PAGE_SIZE (src/engine/query/list-params.ts): no request reads more rows than this at once
    const capped = await api.get(LIST, { size: '100000' });
    expect(capped.body.data.size).toBe(MAX_PAGE_SIZE);
    expect(capped.body.data.records.length).toBeLessThanOrEqual(MAX_PAGE_SIZE);
  });
});
