// The user workbooks of the platform's open-source client (issue #20, part 5): export-user and
// export-template, which the client opens with window.open (the token in ?blade-auth=, an unset
// search field sent as the text "undefined"), and import-user (multipart field `file`, optional
// isCovered). The workbooks are built and read back with exceljs, as a person's spreadsheet would be;
// each refused row is named by its row in the sheet, and nothing of it is written.
import { zipOfZeros } from '../support/zip.ts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHash } from '../../src/server/security/passwords.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';
import { userOfRole } from './fixtures.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const HEADER_ZH = [
  '租户编号',
  '登录账号',
  '用户昵称',
  '用户姓名',
  '邮箱',
  '手机号码',
  '性别',
  '生日',
  '所属角色',
  '所属部门',
  '所属岗位',
  '用户编号',
];
const HEADER_EN = [
  'Tenant ID',
  'Account',
  'Nickname',
  'Full name',
  'Email',
  'Mobile phone',
  'Sex',
  'Birthday',
  'Roles',
  'Departments',
  'Posts',
  'User code',
];

type Cell = string | number | Date | null;

/** A workbook as a person would save it from Excel: one sheet, these rows. */
async function workbook(rows: Cell[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The cells of a workbook's first sheet as text, row by row (the header included). */
async function sheetOf(raw: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(raw as any);
  const sheet = book.worksheets[0];
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const cells: string[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) {
      const v = row.getCell(c).value;
      cells.push(v === null || v === undefined ? '' : String(v));
    }
    rows.push(cells);
  });
  return rows;
}

/** A multipart/form-data body with one file part, as the client's upload sends it. */
function multipart(filename: string, body: Buffer, field = 'file') {
  const boundary = `----zhusuan${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${XLSX}\r\n\r\n`,
    ),
    body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(databaseKinds())('user export, template and import on %s', (kind) => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<TestServer['newTenant']>>;
  let neighbour: Awaited<ReturnType<TestServer['newTenant']>>;
  let admin: Api;

  beforeAll(async () => {
    server = await startServer(kind);
    tenant = await server.newTenant('导入测试建设公司');
    neighbour = await server.newTenant('隔壁建设公司');
    admin = client(server, tenant.token);
    const save = async (api: Api, url: string, record: Record<string, unknown>) => {
      const res = await api.post(url, record);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
      return res.body.data;
    };
    await save(admin, '/api/blade-system/role/save', { parentId: '0', roleName: '施工员', roleAlias: 'builder', sort: 2 });
    await save(admin, '/api/blade-system/role/save', { parentId: '0', roleName: '资料员', roleAlias: 'archivist', sort: 3 });
    await save(admin, '/api/blade-system/dept/save', { parentId: '0', deptCategory: '2', deptName: '工程部', fullName: '工程部', sort: 2 });
    await save(admin, '/api/blade-system/post/save', { category: '2', postCode: 'PM', postName: '项目经理岗', sort: 1 });
    // the other tenant's own role and user, which no import of ours may find or touch
    const other = client(server, neighbour.token);
    const role = await save(other, '/api/blade-system/role/save', { parentId: '0', roleName: '隔壁角色', roleAlias: 'next', sort: 2 });
    await save(other, '/api/blade-system/user/save', {
      account: 'next_door',
      password: 'secret1',
      name: '邻居',
      realName: '邻居本人',
      roleId: role.id,
      status: 1,
    });
  });
  afterAll(async () => server?.dispose());

  /** A GET as the browser's window.open sends it: no header, the token in the query. */
  const open = (url: string, token: string | null, lang?: 'en') =>
    server.app.inject({
      method: 'GET',
      url: token ? `${url}${url.includes('?') ? '&' : '?'}blade-auth=${encodeURIComponent(`bearer ${token}`)}` : url,
      headers: lang ? { 'accept-language': lang } : {},
    });

  const importFile = async (
    body: Buffer,
    options: { filename?: string; query?: string; token?: string; lang?: 'en'; field?: string } = {},
  ) => {
    const { payload, contentType } = multipart(options.filename ?? '用户.xlsx', body, options.field);
    const res = await server.app.inject({
      method: 'POST',
      url: `/blade-system/user/import-user${options.query ?? ''}`,
      payload,
      headers: {
        'content-type': contentType,
        'blade-auth': `bearer ${options.token ?? tenant.token}`,
        ...(options.lang ? { 'accept-language': options.lang } : {}),
      },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  const accounts = async (tenantId: string, like: string) =>
    (
      await server.db.query<{ account: string }>(
        `SELECT account FROM blade_user WHERE tenant_id = $1 AND account LIKE $2 AND is_deleted = 0 ORDER BY account`,
        [tenantId, like],
      )
    ).map((r) => r.account);

  const listed = async (account: string) =>
    (await admin.get('/api/blade-system/user/list', { account_equal: account })).body.data.records[0];

  it('answers the import template: the header row alone, in the caller’s language', async () => {
    const zh = await open('/blade-system/user/export-template', tenant.token);
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toBe(XLSX);
    expect(zh.headers['content-disposition']).toContain(encodeURIComponent('用户导入模板.xlsx'));
    expect(await sheetOf(zh.rawPayload)).toEqual([HEADER_ZH]);
    const en = await open('/blade-system/user/export-template', tenant.token, 'en');
    expect(en.headers['content-disposition']).toContain(encodeURIComponent('User import template.xlsx'));
    expect(await sheetOf(en.rawPayload)).toEqual([HEADER_EN]);
  });

  it('imports a workbook: valid rows are created with their names; each refused row is named with its reason and nothing of it is written', async () => {
    const file = await workbook([
      HEADER_ZH,
      [
        tenant.tenantId,
        'imp_zhang',
        '小张',
        '张伟',
        'zhang@example.com',
        13800138001,
        '男',
        new Date(Date.UTC(1990, 4, 1)),
        '施工员,资料员',
        '工程部',
        '项目经理岗',
        'U001',
      ],
      [null, 'imp_li', '小李', '李娜', null, '13900139002', '女', '1992-03-04', '资料员', '工程部', null, null],
      [null, 'admin', '重复', '重复账号', null, null, null, null, '施工员', null, null, null],
      [null, 'imp_wang', '小王', '王强', null, null, null, null, '不存在的角色', '工程部', null, null],
      [null, 'imp_zhao', '小赵', null, null, null, null, null, '施工员', null, null, null],
      [],
      [neighbour.tenantId, 'imp_qian', '小钱', '钱多', null, null, null, null, '施工员', null, null, null],
      // exceljs reads the escape _x0000_ as NUL, which no column keeps
      [null, 'imp_nul', '小空', '空_x0000_字', null, null, null, null, '施工员', null, null, null],
    ]);
    const { status, body } = await importFile(file);
    expect(status).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ code: 200, success: true, msg: '读取 7 行:新增 2 行,更新 0 行,未导入 5 行' });
    expect(body.data).toEqual({
      read: 7,
      created: 2,
      updated: 0,
      refused: 5,
      refusedRows: [
        { row: 4, account: 'admin', reason: '登录账号 admin 已存在' },
        { row: 5, account: 'imp_wang', reason: '所属角色中的“不存在的角色”不存在' },
        { row: 6, account: 'imp_zhao', reason: '用户姓名不能为空' },
        { row: 8, account: 'imp_qian', reason: `租户编号 ${neighbour.tenantId} 不是当前租户,只能导入本租户的用户` },
        { row: 9, account: 'imp_nul', reason: '用户姓名 含有不允许的字符(空字符或不成对的代理项)' },
      ],
    });
    // the created users, as the list shows them
    expect(await listed('imp_zhang')).toMatchObject({
      name: '小张',
      realName: '张伟',
      email: 'zhang@example.com',
      phone: '13800138001',
      sex: '1',
      birthday: '1990-05-01',
      code: 'U001',
      status: 1,
      roleName: '施工员,资料员',
      deptName: '工程部',
      postName: '项目经理岗',
    });
    expect(await listed('imp_li')).toMatchObject({
      realName: '李娜',
      sex: '2',
      birthday: '1992-03-04',
      roleName: '资料员',
      deptName: '工程部',
    });
    // nothing of a refused row: no account, and the existing admin untouched
    expect(await accounts(tenant.tenantId, 'imp_%')).toEqual(['imp_li', 'imp_zhang']);
    expect(await listed('admin')).toMatchObject({ realName: '管理员' });
    expect(await accounts(neighbour.tenantId, 'imp_%')).toEqual([]);
    // a new account signs in with the initial password (account.initPassword), as after a reset
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      query: { tenantId: tenant.tenantId, username: 'imp_zhang', password: clientHash('123456'), grant_type: 'password', scope: 'all' },
      headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'tenant-id': tenant.tenantId },
    });
    expect(login.statusCode, login.body).toBe(200);
  });

  it('refuses an existing account unless isCovered, which updates only the cells given', async () => {
    const file = await workbook([
      ['登录账号', '用户姓名', '用户昵称', '手机号码'],
      ['imp_li', '李娜娜', '小李', '13700137000'],
      ['imp_sun', '孙悦', '小孙', null],
    ]);
    const plain = await importFile(file);
    expect(plain.body.data).toMatchObject({ read: 2, created: 1, updated: 0, refused: 1, refusedRows: [{ row: 2, account: 'imp_li' }] });
    expect(await listed('imp_li')).toMatchObject({ realName: '李娜' });
    const covered = await importFile(file, { query: '?isCovered=1' });
    expect(covered.body.data).toMatchObject({ read: 2, created: 0, updated: 2, refused: 0 });
    // the cells given changed; the rest (departments, roles, sex) are kept
    expect(await listed('imp_li')).toMatchObject({
      realName: '李娜娜',
      phone: '13700137000',
      sex: '2',
      roleName: '资料员',
      deptName: '工程部',
    });
    expect((await importFile(file, { query: '?isCovered=true' })).body.data).toMatchObject({ updated: 2 });
  });

  it('exports the users the caller sees with the token in the query, an unset search field sent as "undefined"; the file imports again', async () => {
    const all = await open('/blade-system/user/export-user?account=undefined&realName=undefined', tenant.token);
    expect(all.statusCode, all.body.slice(0, 200)).toBe(200);
    expect(all.headers['content-type']).toBe(XLSX);
    expect(all.headers['content-disposition']).toContain(encodeURIComponent('用户数据导出.xlsx'));
    const rows = await sheetOf(all.rawPayload);
    expect(rows[0]).toEqual(HEADER_ZH);
    const byAccount = new Map(rows.slice(1).map((r) => [r[1], r]));
    expect([...byAccount.keys()].sort()).toEqual(['admin', 'imp_li', 'imp_sun', 'imp_zhang']);
    expect(byAccount.get('imp_zhang')).toEqual([
      tenant.tenantId,
      'imp_zhang',
      '小张',
      '张伟',
      'zhang@example.com',
      '13800138001',
      '男',
      '1990-05-01',
      '施工员,资料员',
      '工程部',
      '项目经理岗',
      'U001',
    ]);
    // filtered as the list is (contains), in English when asked
    const some = await open('/api/blade-system/user/export-user?account=imp_z&realName=undefined', tenant.token, 'en');
    expect(some.headers['content-disposition']).toContain(encodeURIComponent('User export.xlsx'));
    const english = await sheetOf(some.rawPayload);
    expect(english[0]).toEqual(HEADER_EN);
    expect(english.slice(1).map((r) => [r[1], r[6]])).toEqual([['imp_zhang', 'Male']]);
    // the exported file goes back in unchanged: every row an update, none refused
    const again = await importFile(all.rawPayload, { query: '?isCovered=1' });
    expect(again.body.data).toEqual({ read: 4, created: 0, updated: 4, refused: 0, refusedRows: [] });
    expect(await listed('imp_zhang')).toMatchObject({ roleName: '施工员,资料员', sex: '1', birthday: '1990-05-01', phone: '13800138001' });
    // …and without isCovered every row is a duplicate
    expect((await importFile(all.rawPayload)).body.data).toMatchObject({ read: 4, created: 0, refused: 4 });
  });

  it('refuses a file that is not a workbook, an .xls, a zip that unpacks too far, too many rows and a sheet without the header, writing nothing', async () => {
    const before = await accounts(tenant.tenantId, '%');
    const notZip = await importFile(Buffer.from('account,name\nx,y\n'), { filename: 'users.xlsx' });
    expect(notZip).toMatchObject({
      status: 400,
      body: { code: 400, success: false, msg: '文件 users.xlsx 不是有效的 Excel 工作簿,未导入任何数据' },
    });
    const xls = await importFile(await workbook([HEADER_ZH]), { filename: 'users.xls' });
    expect(xls.body.msg).toBe('只能导入 .xlsx 格式的 Excel 文件(不支持 .xls 等其他格式,请在 Excel 中另存为 .xlsx): users.xls');
    const english = await importFile(Buffer.from('x'), { filename: 'users.csv', lang: 'en' });
    expect(english.body.msg).toBe(
      'Only .xlsx Excel files can be imported (not .xls or any other format; save it as .xlsx in Excel): users.csv',
    );
    const bomb = await importFile(zipOfZeros(64 * 1024 * 1024));
    expect(bomb).toMatchObject({ status: 400, body: { msg: '工作簿解压后超过 16 MB,未导入任何数据' } });
    const rows: Cell[][] = [HEADER_ZH];
    for (let i = 0; i < 501; i++) rows.push([null, `bulk_${i}`, `批量${i}`, `批量${i}`]);
    const many = await importFile(await workbook(rows));
    expect(many.body.msg).toBe('一次最多导入 500 行,文件中有 501 行,未导入任何数据;请分成几个文件导入');
    const headless = await importFile(await workbook([['imp_x', '某人', '某人']]));
    expect(headless.body.msg).toBe('第1行须为导入模板的表头(至少有“登录账号”列),未导入任何数据;请下载导入模板后填写');
    const empty = await importFile(await workbook([HEADER_ZH, []]));
    expect(empty.body.msg).toBe('文件中没有要导入的数据行');
    const noFile = await importFile(await workbook([HEADER_ZH]), { field: 'upload' });
    expect(noFile.status).toBe(400);
    expect(await accounts(tenant.tenantId, '%')).toEqual(before);
  });

  it('an account without the user-add grant cannot import or fetch the template; covering needs the edit grant', async () => {
    /** A user of the tenant whose role holds exactly these menu codes. */
    const userWith = async (codes: string[]) => {
      const alias = `r${Math.random().toString(36).slice(2, 10)}`;
      const role = await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 9 });
      const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes]);
      await admin.post('/api/blade-system/role/grant', {
        roleIds: [role.body.data.id],
        menuIds: menus.map((m) => m.id),
        dataScopeIds: [],
        apiScopeIds: [],
      });
      const userId = await userOfRole(admin, alias, role.body.data.id);
      return server.tokens.sign({
        tenant_id: tenant.tenantId,
        user_id: userId,
        dept_id: '',
        role_id: role.body.data.id,
        role_name: alias,
      });
    };
    const exporter = await userWith(['system', 'user', 'user_export']);
    const file = await workbook([HEADER_ZH, [null, 'imp_denied', '拒绝', '拒绝']]);
    const refused = await importFile(file, { token: exporter });
    expect(refused).toMatchObject({ status: 403, body: { code: 403, success: false, msg: '没有新增用户管理的权限' } });
    expect((await open('/blade-system/user/export-template', exporter)).statusCode).toBe(403);
    // the export is theirs
    const exported = await open('/blade-system/user/export-user', exporter);
    expect(exported.statusCode).toBe(200);
    const adder = await userWith(['system', 'user', 'user_add']);
    expect((await importFile(file, { token: adder, query: '?isCovered=1' })).body).toMatchObject({
      code: 403,
      msg: '没有修改用户管理的权限',
    });
    expect(await accounts(tenant.tenantId, 'imp_denied')).toEqual([]);
    expect((await importFile(file, { token: adder })).body.data).toMatchObject({ created: 1 });
  });

  it("never reads or writes another tenant's users, roles or departments", async () => {
    const file = await workbook([
      HEADER_ZH,
      [null, 'next_door', '邻居', '我们的邻居', null, null, null, null, '施工员', null, null, null],
      [null, 'imp_zhou', '小周', '周到', null, null, null, null, '隔壁角色', null, null, null],
    ]);
    // isCovered: the other tenant's next_door is not ours to update, so ours is created
    const { body } = await importFile(file, { query: '?isCovered=1' });
    expect(body.data).toMatchObject({
      created: 1,
      updated: 0,
      refusedRows: [{ row: 3, account: 'imp_zhou', reason: '所属角色中的“隔壁角色”不存在' }],
    });
    const [theirs] = await server.db.query<{ realName: string }>(
      `SELECT real_name AS "realName" FROM blade_user WHERE tenant_id = $1 AND account = 'next_door'`,
      [neighbour.tenantId],
    );
    expect(theirs.realName).toBe('邻居本人');
    expect(await listed('next_door')).toMatchObject({ realName: '我们的邻居', roleName: '施工员' });
    // their export holds their users only, ours ours only
    const theirExport = await sheetOf((await open('/blade-system/user/export-user', neighbour.token)).rawPayload);
    expect(theirExport.slice(1).map((r) => r[0])).toEqual(expect.arrayContaining([neighbour.tenantId]));
    expect(theirExport.slice(1).every((r) => r[0] === neighbour.tenantId)).toBe(true);
    expect(theirExport.slice(1).map((r) => r[3])).toContain('邻居本人');
    const ours = await sheetOf((await open('/blade-system/user/export-user', tenant.token)).rawPayload);
    expect(ours.slice(1).every((r) => r[0] === tenant.tenantId)).toBe(true);
  });

  it('takes the token from the query on the downloads only', async () => {
    const token = tenant.token;
    for (const url of ['/blade-system/user/list', '/api/blade-system/user/info', '/blade-system/user/page?account=undefined']) {
      const res = await open(url, token);
      expect(res.statusCode, url).toBe(401);
      expect(JSON.parse(res.body), url).toMatchObject({ code: 401, success: false });
    }
    // a write never takes it
    const { payload, contentType } = multipart('用户.xlsx', await workbook([HEADER_ZH, [null, 'imp_query', '查询', '查询']]));
    const post = await server.app.inject({
      method: 'POST',
      url: `/blade-system/user/import-user?blade-auth=${encodeURIComponent(`bearer ${token}`)}`,
      payload,
      headers: { 'content-type': contentType },
    });
    expect(post.statusCode).toBe(401);
    expect(await accounts(tenant.tenantId, 'imp_query')).toEqual([]);
    // a download: without a token, with a bad one, and the generic export of an entity
    expect((await open('/blade-system/user/export-user', null)).statusCode).toBe(401);
    expect((await open('/blade-system/user/export-user', 'not-a-token')).statusCode).toBe(401);
    const generic = await open('/api/blade-system/user/export?account=imp_', token);
    expect(generic.statusCode).toBe(200);
    expect(generic.headers['content-type']).toBe(XLSX);
  });

  it('refuses a name that more than one record of the tenant holds', async () => {
    for (const parent of ['质量中心', '安全中心']) {
      const top = await admin.post('/api/blade-system/dept/save', {
        parentId: '0',
        deptCategory: '2',
        deptName: parent,
        fullName: parent,
        sort: 5,
      });
      const dept = { parentId: top.body.data.id, deptCategory: '2', deptName: '安全部', fullName: `${parent}安全部`, sort: 1 };
      expect((await admin.post('/api/blade-system/dept/save', dept)).body.code).toBe(200);
    }
    const file = await workbook([HEADER_ZH, [null, 'imp_an', '小安', '安全', null, null, null, null, '施工员', '安全部', null, null]]);
    expect((await importFile(file)).body.data).toMatchObject({
      created: 0,
      refusedRows: [{ row: 2, account: 'imp_an', reason: '所属部门中的“安全部”有多个同名记录,无法确定是哪一个' }],
    });
    expect(await accounts(tenant.tenantId, 'imp_an')).toEqual([]);
  });

  it('keeps the query token out of the API log', async () => {
    // reads are logged for this tenant from now on
    expect(
      (await admin.post('/api/blade-system/param/save', { paramName: '记录读请求', paramKey: 'log.apiReads', paramValue: 'true' })).body
        .code,
    ).toBe(200);
    await expect
      .poll(async () => {
        await open('/blade-system/user/export-user?account=admin', tenant.token);
        await server.logs.flush();
        return server.db.query<{ params: string }>(
          `SELECT params FROM blade_log_api WHERE tenant_id = $1 AND request_uri LIKE '%/user/export-user'`,
          [tenant.tenantId],
        );
      })
      .not.toEqual([]);
    const rows = await server.db.query<{ params: string }>(`SELECT params FROM blade_log_api WHERE tenant_id = $1`, [tenant.tenantId]);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(tenant.token);
    expect(text).not.toContain(tenant.token.split('.')[2]);
    const queries = rows.map((r) => (r.params ? JSON.parse(r.params).query : undefined)).filter((q) => q?.['blade-auth']);
    expect(queries).not.toEqual([]);
    for (const query of queries) expect(query['blade-auth']).toBe('******');
  });
});
