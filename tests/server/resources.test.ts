// Files, storage configurations and SMS: uploads to the local disk and to S3-compatible storage (a
// fake S3 client stands in for the network), refusals that store nothing (wrong type, content that
// contradicts the extension, too large, empty, path-traversal names, no file), links served only to
// the uploading tenant, attachment removal deleting the object, one enabled configuration per
// tenant, write-only secrets, and the built-in SMS provider that records what it would send.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import type { S3Factory, S3Settings } from '../../src/server/modules/resource/storage.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, openTestDb, type TestServer, type Api } from './harness.ts';

const OSS = '/api/blade-resource/oss';
const ATTACH = '/api/blade-resource/attach';
const SMS = '/api/blade-resource/sms';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
const MB = 1024 * 1024;

/** A multipart/form-data body with one file part (or none). */
function multipart(file?: { field?: string; filename: string; type?: string; body: Buffer }) {
  const boundary = '----zhusuan' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n`)];
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(file.body, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** An in-memory S3 that records the commands it was sent. */
function fakeS3() {
  const objects = new Map<string, Buffer>();
  const commands: { name: string; input: any }[] = [];
  const settings: S3Settings[] = [];
  let failing = false;
  class PutObjectCommand {
    constructor(readonly input: any) {}
  }
  class GetObjectCommand {
    constructor(readonly input: any) {}
  }
  class DeleteObjectCommand {
    constructor(readonly input: any) {}
  }
  const factory: S3Factory = async (s) => {
    settings.push(s);
    return {
      commands: { PutObjectCommand, GetObjectCommand, DeleteObjectCommand },
      client: {
        async send(command: any) {
          const name = command.constructor.name as string;
          commands.push({ name, input: command.input });
          const key = `${command.input.Bucket}/${command.input.Key}`;
          if (failing) throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'Error' });
          if (name === 'PutObjectCommand') objects.set(key, command.input.Body);
          if (name === 'DeleteObjectCommand') objects.delete(key);
          if (name === 'GetObjectCommand') {
            const body = objects.get(key);
            if (!body) throw Object.assign(new Error('no such key'), { name: 'NoSuchKey' });
            return { Body: Readable.from(body), ContentLength: body.length };
          }
          return {};
        },
      },
    };
  };
  return { factory, objects, commands, settings, fail: (on: boolean) => (failing = on) };
}

describe.each(databaseKinds())('files and SMS on %s', (kind) => {
  let app: App;
  let drop: () => Promise<void>;
  let storageDir: string;
  let admin: Api;
  let adminToken: string;
  let clerk: Api;
  let other: { api: Api; token: string; tenantId: string };
  const s3 = fakeS3();

  const server = () => app as unknown as TestServer;
  const upload = (api: Api | string | undefined, file?: Parameters<typeof multipart>[0], query: Record<string, string> = {}) => {
    const token = typeof api === 'string' ? api : undefined;
    const { payload, contentType } = multipart(file);
    const headers: Record<string, string> = { 'content-type': contentType, ...(token ? { 'blade-auth': `bearer ${token}` } : {}) };
    return app.app
      .inject({ method: 'POST', url: `${OSS}/endpoint/put-file`, query, payload, headers })
      .then((res) => ({ status: res.statusCode, body: JSON.parse(res.body) }));
  };
  const fetchLink = (link: string, headers: Record<string, string> = {}) => app.app.inject({ method: 'GET', url: link, headers });
  const attachCount = async () => Number((await app.db.query(`SELECT count(*)::int AS n FROM blade_attach WHERE is_deleted = 0`))[0].n);
  const filesOnDisk = (): string[] => {
    const out: string[] = [];
    const walk = (dir: string) =>
      existsSync(dir) &&
      readdirSync(dir).forEach((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : out.push(join(dir, f))));
    walk(storageDir);
    return out;
  };

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'zs-files-'));
    const opened = await openTestDb(kind);
    drop = opened.drop;
    app = await createApp(testConfig({ storageDir, uploadMaxMb: 5 }), { db: opened.db, logger: false, s3Factory: s3.factory });
    const [u] = await app.db.query(
      `SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE tenant_id = '000000' AND account = 'admin'`,
    );
    adminToken = await app.tokens.sign({
      tenant_id: '000000',
      user_id: u.id,
      dept_id: u.deptId,
      role_id: u.roleId,
      role_name: 'administrator',
    });
    admin = client(server(), adminToken);
    const [c] = await app.db.query(
      `SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE tenant_id = '000000' AND account = 'clerk'`,
    );
    clerk = client(
      server(),
      await app.tokens.sign({ tenant_id: '000000', user_id: c.id, dept_id: c.deptId, role_id: c.roleId, role_name: 'project_clerk' }),
    );
    const created = await admin.post('/api/blade-system/tenant/save', { tenantName: '乙建设公司', linkman: '测试', accountNumber: -1 });
    const tenantId = created.body.data.tenantId as string;
    const [b] = await app.db.query(
      `SELECT id::text AS id, role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE tenant_id = $1 AND account = 'admin'`,
      [tenantId],
    );
    const token = await app.tokens.sign({ tenant_id: tenantId, user_id: b.id, dept_id: b.deptId, role_id: b.roleId, role_name: 'admin' });
    other = { api: client(server(), token), token, tenantId };
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
    rmSync(storageDir, { recursive: true, force: true });
  });

  describe('uploads to the local disk (no configuration enabled)', () => {
    let stored: Record<string, string>;

    it('put-file stores the file and its attachment record and answers link, domain, name, originalName, attachId', async () => {
      const res = await upload(adminToken, { filename: '现场照片.png', type: 'image/png', body: PNG });
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
      stored = res.body.data;
      expect(stored.name).toMatch(/^upload\/\d{8}\/[0-9a-f]{32}\.png$/);
      expect(stored).toMatchObject({ originalName: '现场照片.png', domain: `${OSS}/file`, link: `${OSS}/file/${stored.name}` });
      expect(filesOnDisk()).toEqual([join(storageDir, '000000', stored.name)]);
      const record = (await admin.get(`${ATTACH}/detail`, { id: stored.attachId })).body.data;
      expect(record).toMatchObject({
        originalName: '现场照片.png',
        extension: 'png',
        attachSize: PNG.length,
        ossCode: 'local',
        link: stored.link,
      });
    });

    it("the link answers the tenant's users (with the header, or the session cookie a picture sends)", async () => {
      const withHeader = await fetchLink(stored.link, { 'blade-auth': `bearer ${adminToken}` });
      expect(withHeader.statusCode).toBe(200);
      expect(withHeader.headers['content-type']).toBe('image/png');
      expect(withHeader.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(withHeader.rawPayload, PNG)).toBe(0);
      const withCookie = await fetchLink(stored.link, { cookie: `zhusuan-access-token=${encodeURIComponent(adminToken)}` });
      expect(withCookie.statusCode).toBe(200);
      expect((await clerk.get(stored.link)).status).toBe(200);
    });

    it('another tenant and anonymous callers get nothing; guessed names are not found', async () => {
      expect((await other.api.get(stored.link)).status).toBe(404);
      expect((await fetchLink(stored.link, { cookie: `zhusuan-access-token=${other.token}` })).statusCode).toBe(404);
      const anonymous = await fetchLink(stored.link);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.rawPayload.includes(PNG)).toBe(false);
      expect((await admin.get(`${OSS}/file/upload/20260101/${'0'.repeat(32)}.png`)).status).toBe(404);
      expect((await admin.get(`${OSS}/file/../../000000/${stored.name}`)).status).toBe(404);
      expect((await admin.get(`${OSS}/file/${stored.name.replace('upload/', 'upload/..%2F')}`)).status).toBe(404);
      // the cookie stands in for the header on file links only
      expect(
        (await app.app.inject({ method: 'GET', url: `${ATTACH}/list`, headers: { cookie: `zhusuan-access-token=${adminToken}` } }))
          .statusCode,
      ).toBe(401);
    });

    it('removing the attachment deletes the stored object and the link stops answering', async () => {
      const res = await upload(adminToken, { filename: '合同.pdf', body: PDF });
      const { attachId, link, name } = res.body.data;
      expect(existsSync(join(storageDir, '000000', name))).toBe(true);
      expect((await admin.post(`${ATTACH}/remove`, undefined, { ids: attachId })).body).toMatchObject({ code: 200, msg: '删除成功' });
      expect(existsSync(join(storageDir, '000000', name))).toBe(false);
      expect((await admin.get(link)).status).toBe(404);
      expect((await other.api.post(`${ATTACH}/remove`, undefined, { ids: stored.attachId })).status).toBe(404);
      expect((await clerk.post(`${ATTACH}/remove`, undefined, { ids: stored.attachId })).status).toBe(403);
      expect(existsSync(join(storageDir, '000000', stored.name))).toBe(true);
    });

    it("each tenant's files live apart", async () => {
      const res = await upload(other.token, { filename: 'logo.png', body: PNG });
      expect(res.body.code).toBe(200);
      expect(existsSync(join(storageDir, other.tenantId, res.body.data.name))).toBe(true);
      expect((await admin.get(res.body.data.link)).status).toBe(404);
      expect((await other.api.get(res.body.data.link)).status).toBe(200);
      expect((await admin.get(`${ATTACH}/detail`, { id: res.body.data.attachId })).status).toBe(404);
    });
  });

  describe('refused uploads: a clear message, nothing stored', () => {
    const refusals: [string, Parameters<typeof multipart>[0] | undefined, Record<string, string>, string][] = [
      [
        'a type not allowed',
        { filename: 'setup.exe', body: Buffer.from('MZ') },
        {},
        '不支持的文件类型: exe,允许的类型: jpg, jpeg, png, gif, pdf, doc, docx, xls, xlsx, ppt, pptx, txt, csv, zip, rar, 7z, dwg',
      ],
      [
        'no extension',
        { filename: 'README', body: Buffer.from('x') },
        {},
        '不支持的文件类型: —,允许的类型: jpg, jpeg, png, gif, pdf, doc, docx, xls, xlsx, ppt, pptx, txt, csv, zip, rar, 7z, dwg',
      ],
      [
        'content that is not what the extension says',
        { filename: 'photo.png', body: Buffer.from('<script>alert(1)</script>') },
        {},
        '文件内容与扩展名 png 不符',
      ],
      ['an empty file', { filename: 'empty.pdf', body: Buffer.alloc(0) }, {}, '文件内容为空'],
      ['a file over the limit', { filename: 'big.pdf', body: Buffer.concat([PDF, Buffer.alloc(10 * MB)]) }, {}, '文件大小不能超过5 MB'],
      [
        'a parent-directory name',
        { filename: '../../../etc/cron.d/x.png', body: PNG },
        {},
        '文件名不合法(不能包含路径、..或特殊字符): ../../../etc/cron.d/x.png',
      ],
      ['a Windows path', { filename: '..\\..\\boot.png', body: PNG }, {}, '文件名不合法(不能包含路径、..或特殊字符): ..\\..\\boot.png'],
      [
        'an encoded traversal',
        { filename: '%2e%2e%2fpasswd.png', body: PNG },
        {},
        '文件名不合法(不能包含路径、..或特殊字符): %2e%2e%2fpasswd.png',
      ],
      ['a hidden file name', { filename: '.htaccess', body: Buffer.from('x') }, {}, '文件名不合法(不能包含路径、..或特殊字符): .htaccess'],
      ['no file part', undefined, {}, '请选择要上传的文件(表单字段 file)'],
      ['a file under another field name', { field: 'upload', filename: 'a.png', body: PNG }, {}, '请选择要上传的文件(表单字段 file)'],
      [
        'an avatar that is not jpg/png',
        { filename: 'me.gif', body: Buffer.from('GIF89a') },
        { kind: 'avatar' },
        '不支持的文件类型: gif,允许的类型: jpg, jpeg, png',
      ],
      [
        'an avatar over 500 kb',
        { filename: 'me.png', body: Buffer.concat([PNG, Buffer.alloc(500 * 1024)]) },
        { kind: 'avatar' },
        '文件大小不能超过500 KB',
      ],
    ];

    it.each(refusals)('%s', async (_case, file, query, message) => {
      const before = { records: await attachCount(), files: filesOnDisk().length };
      const res = await upload(adminToken, file, query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, success: false, msg: message });
      expect(await attachCount()).toBe(before.records);
      expect(filesOnDisk()).toHaveLength(before.files);
    });

    it('in English too, and a request that is not multipart', async () => {
      const { payload, contentType } = multipart({ filename: 'a.exe', body: Buffer.from('MZ') });
      const en = await app.app.inject({
        method: 'POST',
        url: `${OSS}/endpoint/put-file`,
        payload,
        headers: { 'content-type': contentType, 'blade-auth': `bearer ${adminToken}`, 'accept-language': 'en' },
      });
      expect(JSON.parse(en.body).msg).toMatch(/^File type exe is not allowed; allowed: jpg/);
      const json = await admin.post(`${OSS}/endpoint/put-file`, { file: 'x' });
      expect(json.status).toBe(400);
      expect(json.body.msg).toBe('请选择要上传的文件(表单字段 file)');
      expect((await upload(undefined, { filename: 'a.png', body: PNG })).status).toBe(401);
    });

    it('an avatar of jpg or png within 500 kb is taken', async () => {
      const res = await upload(adminToken, { filename: 'me.png', body: PNG }, { kind: 'avatar' });
      expect(res.body.code).toBe(200);
    });
  });

  describe('storage configurations', () => {
    it('the enabled configuration sets the limits; one configuration is enabled per tenant', async () => {
      const small = (await admin.post(`${OSS}/save`, { category: '5', ossCode: 'local-small', maxSizeMb: 1, allowedTypes: 'png,pdf' })).body
        .data;
      const wide = (await admin.post(`${OSS}/save`, { category: '5', ossCode: 'local-wide', maxSizeMb: 3, allowedTypes: 'pdf,txt' })).body
        .data;
      expect(small.status).toBe(1);
      expect((await admin.post(`${OSS}/enable`, undefined, { id: small.id })).body.code).toBe(200);
      expect((await upload(adminToken, { filename: 'a.txt', body: Buffer.from('hello') })).body.msg).toBe(
        '不支持的文件类型: txt,允许的类型: png, pdf',
      );
      expect((await upload(adminToken, { filename: 'b.pdf', body: Buffer.concat([PDF, Buffer.alloc(MB)]) })).body.msg).toBe(
        '文件大小不能超过1 MB',
      );
      const ok = await upload(adminToken, { filename: 'c.png', body: PNG });
      expect((await admin.get(`${ATTACH}/detail`, { id: ok.body.data.attachId })).body.data.ossCode).toBe('local-small');

      expect((await admin.post(`${OSS}/enable`, undefined, { id: wide.id })).body.code).toBe(200);
      const statuses = (await admin.get(`${OSS}/list`, { ossCode: 'local-', size: '50' })).body.data.records.map((r: any) => [
        r.ossCode,
        r.status,
      ]);
      expect(statuses.sort()).toEqual([
        ['local-small', 1],
        ['local-wide', 2],
      ]);
      expect((await upload(adminToken, { filename: 'a.txt', body: Buffer.from('hello') })).body.code).toBe(200);
      // ?code= picks a configuration explicitly
      expect((await upload(adminToken, { filename: 'a.txt', body: Buffer.from('hello') }, { code: 'local-small' })).body.msg).toBe(
        '不支持的文件类型: txt,允许的类型: png, pdf',
      );
      expect((await upload(adminToken, { filename: 'a.txt', body: Buffer.from('hello') }, { code: 'nope' })).status).toBe(404);
    });

    it('enabling needs the oss_enable button and stays in the tenant', async () => {
      const [row] = await app.db.query(`SELECT id::text AS id FROM blade_oss WHERE oss_code = 'local-small' AND tenant_id = '000000'`);
      expect((await clerk.post(`${OSS}/enable`, undefined, { id: row.id })).status).toBe(403);
      expect((await other.api.post(`${OSS}/enable`, undefined, { id: row.id })).status).toBe(404);
      expect((await other.api.get(`${OSS}/list`)).body.data.total).toBe(0);
    });

    it('a configuration holding files cannot be removed', async () => {
      const [row] = await app.db.query(`SELECT id::text AS id FROM blade_oss WHERE oss_code = 'local-small' AND tenant_id = '000000'`);
      const res = await admin.post(`${OSS}/remove`, undefined, { ids: row.id });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('对象存储已被附件管理引用,不能删除');
    });

    it('bad configurations are refused with the field named', async () => {
      const res = await admin.post(`${OSS}/save`, { category: '1', ossCode: 'Bad Code', maxSizeMb: 0, allowedTypes: '.exe' });
      expect(res.status).toBe(400);
      const paths = res.body.data.errors.map((e: any) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['/ossCode', '/maxSizeMb', '/allowedTypes', '/endpoint', '/bucketName', '/accessKey']));
    });
  });

  describe('S3-compatible storage (fake client)', () => {
    let config: Record<string, any>;

    it('the secret key is write-only: kept by the server, never returned, kept when left empty', async () => {
      const res = await admin.post(`${OSS}/save`, {
        category: '1',
        ossCode: 'minio-main',
        endpoint: 'http://127.0.0.1:9000',
        bucketName: 'zhusuan-files',
        accessKey: 'minio',
        secretKey: 'minio-secret-1',
        region: 'cn-east-1',
        maxSizeMb: 2,
        allowedTypes: 'png,pdf',
      });
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
      config = res.body.data;
      expect(config).not.toHaveProperty('secretKey');
      expect(JSON.stringify((await admin.get(`${OSS}/detail`, { id: config.id })).body)).not.toContain('minio-secret-1');
      expect(JSON.stringify((await admin.get(`${OSS}/list`)).body)).not.toContain('minio-secret-1');
      expect((await admin.post(`${OSS}/update`, { ...config, remark: '主存储' })).body.code).toBe(200);
      const [secret] = await app.db.query(`SELECT secret FROM blade_resource_secret WHERE owner = 'oss' AND owner_id = $1`, [config.id]);
      expect(secret.secret).toBe('minio-secret-1');
    });

    it("uploads, serves and removes objects through the S3 client, under the tenant's prefix", async () => {
      expect((await admin.post(`${OSS}/enable`, undefined, { id: config.id })).body.code).toBe(200);
      const before = filesOnDisk().length;
      const res = await upload(adminToken, { filename: '图纸.pdf', body: PDF });
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
      const { name, link, attachId } = res.body.data;
      expect(s3.settings.at(-1)).toEqual({
        category: '1',
        endpoint: 'http://127.0.0.1:9000',
        region: 'cn-east-1',
        bucketName: 'zhusuan-files',
        accessKey: 'minio',
        secretKey: 'minio-secret-1',
      });
      const put = s3.commands.find((c) => c.name === 'PutObjectCommand')!;
      expect(put.input).toMatchObject({
        Bucket: 'zhusuan-files',
        Key: `000000/${name}`,
        ContentType: 'application/pdf',
        ContentLength: PDF.length,
      });
      expect(filesOnDisk()).toHaveLength(before);

      const served = await fetchLink(link, { 'blade-auth': `bearer ${adminToken}` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-disposition']).toBe(`inline; filename*=UTF-8''${encodeURIComponent('图纸.pdf')}`);
      expect(Buffer.compare(served.rawPayload, PDF)).toBe(0);
      expect((await other.api.get(link)).status).toBe(404);

      expect((await admin.post(`${ATTACH}/remove`, undefined, { ids: attachId })).body.code).toBe(200);
      expect(s3.commands.at(-1)).toEqual({ name: 'DeleteObjectCommand', input: { Bucket: 'zhusuan-files', Key: `000000/${name}` } });
      expect(s3.objects.has(`zhusuan-files/000000/${name}`)).toBe(false);
    });

    it('a storage that fails leaves no attachment record', async () => {
      const before = await attachCount();
      s3.fail(true);
      try {
        const res = await upload(adminToken, { filename: 'x.png', body: PNG });
        expect(res.status).toBe(502);
        expect(res.body.msg).toBe('文件存储失败,请检查对象存储配置');
      } finally {
        s3.fail(false);
      }
      expect(await attachCount()).toBe(before);
    });
  });

  describe('SMS', () => {
    it('the built-in service records what it would send (no configuration needed)', async () => {
      const res = await admin.post(`${SMS}/endpoint/send-message`, undefined, {
        phones: '13800138000,13900139000',
        params: JSON.stringify({ code: '4821' }),
      });
      expect(res.body, JSON.stringify(res.body)).toMatchObject({
        code: 200,
        data: { code: 'builtin', phones: ['13800138000', '13900139000'], recorded: true },
      });
      const records = (await admin.get(`${SMS}/endpoint/records`, { phone: '13900139000' })).body.data;
      expect(records.total).toBe(1);
      expect(records.records[0]).toMatchObject({ smsCode: 'builtin', phones: '13800138000,13900139000', params: '{"code":"4821"}' });
      expect((await other.api.get(`${SMS}/endpoint/records`)).body.data.total).toBe(0);
    });

    it('an enabled built-in configuration records with its template and signature', async () => {
      const cfg = (await admin.post(`${SMS}/save`, { category: '5', smsCode: 'verify', templateId: 'SMS_1001', signName: '筑算' })).body
        .data;
      expect((await admin.post(`${SMS}/enable`, undefined, { id: cfg.id })).body.code).toBe(200);
      await admin.post(`${SMS}/endpoint/send-message`, undefined, { phones: '13700137000', params: '{"name":"王晓明"}' });
      const [row] = (await admin.get(`${SMS}/endpoint/records`, { phone: '13700137000' })).body.data.records;
      expect(row).toMatchObject({ smsCode: 'verify', templateId: 'SMS_1001', signName: '筑算' });
    });

    it('bad phones or params, an unconnected provider, a missing button: refused, nothing recorded', async () => {
      const count = async () => (await admin.get(`${SMS}/endpoint/records`)).body.data.total as number;
      const n = await count();
      const badPhone = await admin.post(`${SMS}/endpoint/send-message`, undefined, { phones: '13800138000,123' });
      expect(badPhone.body).toMatchObject({ code: 400, msg: '手机号码格式不正确: 123' });
      expect((await admin.post(`${SMS}/endpoint/send-message`, undefined, { phones: '' })).body.msg).toBe('缺少必要的请求参数: phones');
      expect((await admin.post(`${SMS}/endpoint/send-message`, undefined, { phones: '13800138000', params: '[1]' })).body.msg).toBe(
        '短信参数须为 JSON 对象,值为文本或数字',
      );
      const aliyun = await admin.post(`${SMS}/save`, {
        category: '3',
        smsCode: 'aliyun',
        templateId: 'SMS_2002',
        signName: '筑算',
        accessKey: 'LTAI',
        secretKey: 'secret',
        regionId: 'cn-hangzhou',
      });
      expect(aliyun.body.code).toBe(200);
      expect(aliyun.body.data).not.toHaveProperty('secretKey');
      const unconnected = await admin.post(`${SMS}/endpoint/send-message`, undefined, { code: 'aliyun', phones: '13800138000' });
      expect(unconnected.body).toMatchObject({ code: 400, msg: '短信配置 aliyun 的服务商尚未接入,请使用内置短信服务' });
      expect((await clerk.post(`${SMS}/endpoint/send-message`, undefined, { phones: '13800138000' })).status).toBe(403);
      expect(await count()).toBe(n);
    });
  });
});
