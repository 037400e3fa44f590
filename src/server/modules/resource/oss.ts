// /api/blade-resource/oss and /attach beyond the generic routes:
//   POST oss/endpoint/put-file[?code=][&kind=avatar]  multipart field `file`: stores the file and
//        its attachment record, answers {link, domain, name, originalName, attachId}
//        (put-file-attach is the same route under the platform's other name)
//   GET  oss/file/upload/<yyyyMMdd>/<uuid>.<ext>  the file, to users of the tenant that uploaded it
//        only: another tenant, or a name without a record, is "not found"
//   POST oss/enable?id=   makes one configuration the tenant's storage (button oss_enable)
//   POST attach/remove?ids=  removes the records and then their stored objects
// Files go to the storage of `?code=`, else the tenant's enabled configuration, else the server's
// own disk under DATA_DIR ("local"); each configuration sets its size and type limits. An S3
// endpoint must name a host of ZS_OSS_HOSTS, and this machine or the main database's server only in
// the platform tenant's configurations; a storage that fails answers one message (storageFailed).
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { t } from '../../../engine/i18n/messages.ts';
import type { EntityModel } from '../../../engine/model/types.ts';
import { nowText } from '../../clock.ts';
import type { Queryable, Row } from '../../db/db.ts';
import { q, selectList } from '../../db/sql.ts';
import { EntityStore, parseId, parseIds, PLATFORM_TENANT, type Actor } from '../../db/store.ts';
import { AppError, notFound } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import { storeFor, type RouteContext } from '../../http/entity-routes.ts';
import { envelope } from '../../http/envelope.ts';
import {
  AVATAR_LIMITS,
  checkContent,
  checkExtension,
  checkFileName,
  checkSize,
  DEFAULT_MAX_MB,
  DEFAULT_TYPES,
  inline,
  mimeOf,
  OBJECT_NAME,
  objectName,
  readUploadedFile,
  type UploadLimits,
} from './files.ts';
import { readSecret, UPLOADED, type UploadedFile } from './hooks.ts';
import { LocalDiskStorage, S3Storage, type ObjectStorage, type S3Factory } from './storage.ts';
import { isAllowedHost } from '../develop/datasource.ts';
import { failureFloor, ReservedTarget, type PlatformAddresses } from '../develop/outgoing.ts';

type Query = Record<string, string | undefined>;

export const LOCAL_CODE = 'local';
const LOCAL_CATEGORY = '5';
const ENABLED = 2;
const DISABLED = 1;
const MB = 1024 * 1024;

export interface StorageSettings {
  /** The local disk's directory. */
  storageDir: string;
  /** No upload is read beyond this, whatever a configuration says. */
  uploadMaxMb: number;
  s3Factory: S3Factory;
  /** The hosts an S3 endpoint may name (ZS_OSS_HOSTS): the server sends uploads there and reads files back. */
  allowedHosts: readonly string[];
  /** This machine and the main database's server: the platform tenant's endpoints alone may name them. */
  addresses: PlatformAddresses;
}

interface OssRow {
  id: string;
  ossCode: string;
  category: string;
  endpoint: string | null;
  region: string | null;
  bucketName: string | null;
  accessKey: string | null;
  maxSizeMb: number | null;
  allowedTypes: string | null;
  updateTime: string | null;
}

/** The storages of every tenant: the local disk, and S3 clients built once per configuration version. */
export class Storages {
  readonly local: LocalDiskStorage;
  private readonly s3 = new Map<string, Promise<ObjectStorage>>();
  private readonly model: EntityModel;

  /** `log`: the server's log, where a failing storage's cause goes (never the answer, nor a log a tenant reads). */
  constructor(
    private readonly ctx: RouteContext,
    private readonly settings: StorageSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.local = new LocalDiskStorage(settings.storageDir);
    this.model = ctx.catalog.entities.oss;
  }

  /** A tenant's configuration by code, or its enabled one. */
  async config(db: Queryable, tenantId: string, code?: string): Promise<OssRow | undefined> {
    const fields = [
      'id',
      'ossCode',
      'category',
      'endpoint',
      'region',
      'bucketName',
      'accessKey',
      'maxSizeMb',
      'allowedTypes',
      'updateTime',
    ].map((n) => this.model.fieldMap[n]);
    const where = code ? 't.oss_code = $2' : `t.status = ${ENABLED}`;
    const [row] = await db.query<OssRow>(
      `SELECT ${selectList(fields)} FROM ${q(this.model.table)} t WHERE t.tenant_id = $1 AND t.is_deleted = 0 AND ${where} ORDER BY t.update_time DESC LIMIT 1`,
      code ? [tenantId, code] : [tenantId],
    );
    return row;
  }

  limits(row: OssRow | undefined): UploadLimits {
    const cap = this.settings.uploadMaxMb * MB;
    const types = (row?.allowedTypes || DEFAULT_TYPES)
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
    return { maxBytes: Math.min((row?.maxSizeMb || DEFAULT_MAX_MB) * MB, cap), types };
  }

  /** The storage holding objects of a configuration (none, or local disk: the server's disk). */
  async storage(tenantId: string, row: OssRow | undefined): Promise<ObjectStorage> {
    if (!row || row.category === LOCAL_CATEGORY) return this.local;
    const { host, port } = await this.checkEndpoint(tenantId, row.endpoint ?? '');
    const key = `${row.id}|${row.updateTime}`;
    let storage = this.s3.get(key);
    if (!storage) {
      storage = (async () => {
        // a tenant's name must not lead to this machine or the main database's server either
        if (tenantId !== PLATFORM_TENANT) await this.tenantAddress(host, port);
        const secretKey = await readSecret(this.ctx.db, 'oss', row.id, tenantId);
        const { client, commands } = await this.settings.s3Factory({
          category: row.category,
          endpoint: row.endpoint ?? '',
          region: row.region,
          bucketName: row.bucketName ?? '',
          accessKey: row.accessKey ?? '',
          secretKey,
        });
        return new S3Storage(client, commands, row.bucketName ?? '');
      })();
      storage.catch(() => this.s3.delete(key));
      this.s3.set(key, storage);
    }
    return storage;
  }

  /**
   * A tenant administrator writes the endpoint: the server connects only to a host the operator
   * allowed, never to an internal address of their choosing, and to this machine or the main
   * database's server for the platform tenant only. Checked on every use, so that a record saved
   * before the allow-list changed is refused too.
   */
  private async checkEndpoint(tenantId: string, endpoint: string): Promise<{ host: string; port: number }> {
    let host: string;
    let port = 0;
    try {
      const url = new URL(endpoint);
      host = url.hostname;
      port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    } catch {
      host = endpoint.slice(0, 100);
    }
    if (!host || !isAllowedHost(host, this.settings.allowedHosts)) throw new AppError(400, 'ossHostRefused', { host: host || '—' });
    if (tenantId !== PLATFORM_TENANT && (await this.settings.addresses.reservedByName(host, port)))
      throw new AppError(400, 'ossHostReserved', { host });
    return { host, port };
  }

  /** A tenant's endpoint resolved: refused when it leads to this machine or the main database's server. */
  private async tenantAddress(host: string, port: number): Promise<void> {
    const started = Date.now();
    try {
      await this.settings.addresses.tenantAddress(host, port);
    } catch (err) {
      if (err instanceof ReservedTarget) throw new AppError(400, 'ossHostReserved', { host });
      this.log.warn({ err, host }, 'resolving an object storage endpoint failed');
      await failureFloor(started);
      throw new AppError(502, 'storageFailed');
    }
  }

  /** The storage an attachment's object lives in. */
  async storageByCode(tenantId: string, ossCode: string | null): Promise<ObjectStorage> {
    if (!ossCode || ossCode === LOCAL_CODE) return this.local;
    return this.storage(tenantId, await this.config(this.ctx.db, tenantId, ossCode));
  }
}

export async function registerOssRoutes(app: FastifyInstance, ctx: RouteContext, settings: StorageSettings): Promise<Storages> {
  // preservePath: the name arrives as sent, so that a name with a path is refused, not silently cut
  await app.register(multipart, { preservePath: true, limits: { fileSize: settings.uploadMaxMb * MB, files: 1, fields: 10, parts: 12 } });
  const storages = new Storages(ctx, settings, app.log);
  const oss = ctx.catalog.entities.oss;
  const attach = ctx.catalog.entities.attach;
  const fileBase = `${oss.api}/file`;

  async function putFile(request: FastifyRequest) {
    const actor = actorOf(request);
    const query = request.query as Query;
    const config = await storages.config(ctx.db, actor.tenantId, query.code || undefined);
    if (query.code && !config) throw notFound(oss.label);
    const configured = storages.limits(config);
    const limits =
      query.kind === 'avatar'
        ? { maxBytes: Math.min(AVATAR_LIMITS.maxBytes, configured.maxBytes), types: AVATAR_LIMITS.types }
        : configured;
    const { filename, body } = await readUploadedFile(request, limits.maxBytes, checkFileName);
    const ext = checkExtension(filename, limits);
    checkSize(body.length, limits);
    checkContent(ext, body);

    const name = objectName(nowText(ctx.timeZone).slice(0, 10), ext);
    const key = `${actor.tenantId}/${name}`;
    const storage = await storages.storage(actor.tenantId, config);
    const started = Date.now();
    try {
      await storage.put(key, body, mimeOf(ext));
    } catch (err) {
      request.log.error({ err }, 'storing an upload failed');
      await failureFloor(started);
      throw new AppError(502, 'storageFailed');
    }
    const file: UploadedFile = {
      link: `${fileBase}/${name}`,
      domain: fileBase,
      name,
      extension: ext,
      attachSize: body.length,
      ossCode: config?.ossCode ?? LOCAL_CODE,
    };
    let record: Row;
    try {
      record = await new EntityStore(ctx, attach, actor).create({ originalName: filename, [UPLOADED]: file });
    } catch (err) {
      await storage.remove(key).catch(() => undefined);
      throw err;
    }
    return envelope(
      200,
      { link: file.link, domain: file.domain, name, originalName: filename, attachId: record.id },
      t('ok', request.lang),
    );
  }
  app.post(`${oss.api}/endpoint/put-file`, putFile);
  app.post(`${oss.api}/endpoint/put-file-attach`, putFile);

  app.get(`${fileBase}/*`, async (request: FastifyRequest, reply: FastifyReply) => {
    const actor = actorOf(request);
    const name = (request.params as { '*': string })['*'];
    if (!OBJECT_NAME.test(name)) throw notFound(attach.label);
    const [row] = await ctx.db.query<{ ossCode: string | null; originalName: string; extension: string }>(
      `SELECT oss_code AS "ossCode", original_name AS "originalName", extension FROM ${q(attach.table)}
        WHERE tenant_id = $1 AND name = $2 AND is_deleted = 0 LIMIT 1`,
      [actor.tenantId, name],
    );
    if (!row) throw notFound(attach.label);
    const storage = await storages.storageByCode(actor.tenantId, row.ossCode);
    const started = Date.now();
    let stored: Awaited<ReturnType<ObjectStorage['get']>>;
    try {
      stored = await storage.get(`${actor.tenantId}/${name}`);
    } catch (err) {
      // the storage's words (connection refused, a timeout …) would tell what listens where
      request.log.error({ err }, 'reading a stored file failed');
      await failureFloor(started);
      throw new AppError(502, 'storageFailed');
    }
    if (!stored) throw notFound(attach.label);
    const ext = row.extension || name.slice(name.lastIndexOf('.') + 1);
    reply
      .header('content-type', mimeOf(ext))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=3600')
      .header('content-disposition', `${inline(ext) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.originalName)}`);
    if (stored.size !== undefined) reply.header('content-length', stored.size);
    return reply.send(stored.body);
  });

  app.post(`${oss.api}/enable`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'oss_enable');
    await enableOne(ctx, oss, actor, parseId((request.query as Query).id ?? ((request.body ?? {}) as Query).id));
    return envelope(200, null, t('ok', request.lang));
  });

  app.post(`${attach.api}/remove`, async (request) => {
    const query = request.query as Query;
    const body = (request.body ?? {}) as Query;
    const raw = query.ids ?? query.id ?? body.ids ?? body.id;
    const ids = parseIds(raw === undefined ? undefined : String(raw));
    const store = await storeFor(ctx, attach, request, 'delete');
    const actor = actorOf(request);
    const objects = await ctx.db.query<{ name: string | null; ossCode: string | null }>(
      `SELECT name, oss_code AS "ossCode" FROM ${q(attach.table)} WHERE tenant_id = $1 AND id = ANY($2::bigint[]) AND is_deleted = 0`,
      [actor.tenantId, ids],
    );
    await store.remove(ids);
    for (const object of objects) {
      if (!object.name || !OBJECT_NAME.test(object.name)) continue;
      try {
        await (await storages.storageByCode(actor.tenantId, object.ossCode)).remove(`${actor.tenantId}/${object.name}`);
      } catch (err) {
        request.log.error({ err, name: object.name }, 'removing a stored object failed');
      }
    }
    return envelope(200, null, t('removed', request.lang));
  });

  return storages;
}

/** Makes one configuration of the caller's tenant the enabled one (status 2), the others 1. */
export async function enableOne(ctx: RouteContext, model: EntityModel, actor: Actor, id: string) {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.query(`SELECT id FROM ${q(model.table)} WHERE id = $1 AND tenant_id = $2 AND is_deleted = 0 FOR UPDATE`, [
      id,
      actor.tenantId,
    ]);
    if (!row) throw notFound(model.label);
    const now = nowText(ctx.timeZone);
    await tx.query(`UPDATE ${q(model.table)} SET status = $1, update_time = $3 WHERE tenant_id = $2 AND status = $4 AND is_deleted = 0`, [
      DISABLED,
      actor.tenantId,
      now,
      ENABLED,
    ]);
    await tx.query(`UPDATE ${q(model.table)} SET status = $1, update_user = $3, update_time = $4 WHERE id = $2`, [
      ENABLED,
      id,
      actor.userId,
      now,
    ]);
  });
}
