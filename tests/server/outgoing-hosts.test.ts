// The server connects to no host a tenant names unless the operator allowed it: an object storage
// endpoint outside ZS_OSS_HOSTS is refused before any S3 client is built, in the caller's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import type { S3Factory, S3Settings } from '../../src/server/modules/resource/storage.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, openTestDb, type Api, type TestServer } from './harness.ts';

const OSS = '/api/blade-resource/oss';

function multipart(filename: string, body: string) {
  const boundary = `----zs${Date.now()}`;
  const payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${body}\r\n--${boundary}--\r\n`);
  return { payload, 'content-type': `multipart/form-data; boundary=${boundary}` };
}

describe.each(databaseKinds())('outgoing connections on %s', (kind) => {
  let app: App;
  let drop: () => Promise<void>;
  let admin: Api;
  let token: string;
  /** The S3 configurations a client was built for: none may name a refused host. */
  const built: S3Settings[] = [];
  const factory: S3Factory = async (settings) => {
    built.push(settings);
    class Command { constructor(readonly input: unknown) {} }
    return { client: { send: async () => ({}) }, commands: { PutObjectCommand: Command, GetObjectCommand: Command, DeleteObjectCommand: Command } };
  };

  const upload = async (lang: 'zh' | 'en') => {
    const { payload, ...type } = multipart('说明.txt', 'x');
    const res = await app.app.inject({ method: 'POST', url: `${OSS}/endpoint/put-file`, payload, headers: { ...type, 'blade-auth': `bearer ${token}`, 'accept-language': lang } });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  beforeAll(async () => {
    const opened = await openTestDb(kind);
    drop = opened.drop;
    app = await createApp(testConfig({ ossHosts: ['minio.internal.example'] }), { db: opened.db, logger: false, s3Factory: factory });
    const [u] = await app.db.query(`SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE tenant_id = '000000' AND account = 'admin'`);
    token = await app.tokens.sign({ tenant_id: '000000', user_id: u.id, dept_id: u.deptId, role_id: u.roleId, role_name: 'administrator' });
    admin = client(app as unknown as TestServer, token);
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  async function enable(ossCode: string, endpoint: string) {
    const saved = await admin.post(`${OSS}/save`, { category: '1', ossCode, endpoint, bucketName: 'files', accessKey: 'k', secretKey: 's', maxSizeMb: 2, allowedTypes: 'txt' });
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200 });
    expect((await admin.post(`${OSS}/enable`, undefined, { id: saved.body.data.id })).body.code).toBe(200);
  }

  it('an endpoint on a host outside the allow-list is refused and no client is built', async () => {
    await enable('metadata', 'http://169.254.169.254/latest');
    const refused = await upload('zh');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 400, success: false, msg: '对象存储地址的主机 169.254.169.254 不在允许连接的主机列表中(ZS_OSS_HOSTS),未尝试连接' });
    expect((await upload('en')).body.msg).toBe('Host 169.254.169.254 of the object storage endpoint is not in the allowed hosts (ZS_OSS_HOSTS); no connection was attempted');
    await enable('loopback', 'http://127.0.0.1:9000');
    expect((await upload('zh')).status).toBe(400);
    expect(built).toEqual([]);
  });

  it('an endpoint on an allowed host is used', async () => {
    await enable('minio', 'https://minio.internal.example:9000');
    const res = await upload('zh');
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
    expect(built.map((s) => s.endpoint)).toEqual(['https://minio.internal.example:9000']);
  });
});
