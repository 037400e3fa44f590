// /api/blade-system/user beyond the generic routes: the paged list by department, the caller's own
// profile and password, and the administrator's actions (grant roles, reset password, unlock),
// plus guest registration, which creates an account that waits for approval, and the workbook
// routes of the platform's open-source client: export-user, export-template and import-user
// (user-excel.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import { parseListParams } from '../../../engine/query/list-params.ts';
import type { Row } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { resolveLabels } from '../../db/labels.ts';
import { EntityStore, parseId, parseIds, type Actor } from '../../db/store.ts';
import { AppError, badRequest } from '../../errors.ts';
import { actorOf, DOWNLOAD } from '../../http/auth.ts';
import { envelope } from '../../http/envelope.ts';
import { storeFor, type RouteContext } from '../../http/entity-routes.ts';
import { sendWorkbook } from '../../http/export.ts';
import { NotAWorkbook, readWorkbook, UNPACKED_LIMIT, WorkbookTooLarge } from '../../http/xlsx-read.ts';
import { extensionOf, readUploadedFile, sizeText } from '../resource/files.ts';
import { exportUsers, importUsers, sheetRows, userTemplate } from './user-excel.ts';
import { clientHash, isClientHash } from '../../security/passwords.ts';
import type { IdentityService } from '../auth/identity.ts';
import { PARAMS, readParam } from './params.ts';
import { auditEvent } from '../log/service.ts';

type Query = Record<string, string | undefined>;

export const USER_PUBLIC_PATHS = ['/api/blade-system/user/register-guest'];

/** What a user who must change the initial password may call before: their own info and the change. */
export const USER_PASSWORD_CHANGE_PATHS = ['/api/blade-system/user/info', '/api/blade-system/user/update-password'];

const PROFILE_FIELDS = ['avatar', 'name', 'realName', 'email', 'phone', 'birthday', 'sex'];

export interface UserRouteOptions {
  /** The largest workbook import-user reads (the request body limit). */
  importMaxBytes: number;
}

/** The name of import-user's workbook (an .xlsx), or why it is refused. */
function workbookName(raw: string | undefined): string {
  const name = (raw ?? '').split(/[\\/]/).pop()!.slice(0, 80);
  if (extensionOf(name) !== 'xlsx') throw new AppError(400, 'importFileType', { name });
  return name;
}

export function registerUserRoutes(app: FastifyInstance, ctx: RouteContext, identity: IdentityService, options: UserRouteOptions) {
  const model = ctx.catalog.entities.user;
  const base = model.api;
  const ok = (request: FastifyRequest, data: unknown = null) => envelope(200, data, t('ok', request.lang));
  const ownStore = (request: FastifyRequest) => new EntityStore(ctx, model, actorOf(request));

  /**
   * The rows with the names of their roles, departments and posts beside the ids (roleName,
   * deptName, postName, comma-joined like the ids): what the platform's clients show in a user list.
   */
  const linkFields = model.fields.filter((f) => ['roleId', 'deptId', 'postId'].includes(f.name));
  const withNames = async (actor: Actor, rows: Row[]): Promise<Row[]> => {
    const maps = await resolveLabels(ctx, actor, linkFields, rows, actor.lang);
    const names = (field: (typeof linkFields)[number], value: unknown) =>
      String(value ?? '')
        .split(',')
        .filter(Boolean)
        .map((id) => maps.get(field)?.get(id) ?? id)
        .join(',');
    return rows.map((row) => ({
      ...row,
      ...Object.fromEntries(linkFields.map((f) => [f.ref!.labelField ?? `${f.name}Name`, names(f, row[f.name])])),
    }));
  };
  const listWithNames = async (request: FastifyRequest, params: Query) => {
    const page = await (await storeFor(ctx, model, request, 'view')).list(parseListParams(model, params));
    return ok(request, { ...page, records: await withNames(actorOf(request), page.records) });
  };

  app.get(`${base}/page`, async (request) => {
    const { deptId, ...rest } = request.query as Query;
    return listWithNames(request, deptId ? { ...rest, deptId_equal: parseId(deptId, 'deptId') } : rest);
  });
  app.get(`${base}/list`, async (request) => listWithNames(request, request.query as Query));

  app.get(`${base}/user-list`, async (request) => {
    const query = parseListParams(model, { ...(request.query as Query), size: '500' });
    return ok(request, (await (await storeFor(ctx, model, request, 'view')).list(query)).records);
  });

  // the caller's own record, with the names of their roles, departments and post (the home names the
  // roles, which a user may not otherwise list)
  app.get(`${base}/info`, async (request) => {
    const actor = actorOf(request);
    const [own] = await withNames(actor, [await ownStore(request).detail(actor.userId)]);
    return ok(request, own);
  });
  app.get(`${base}/platform-detail`, async (request) =>
    ok(request, await (await storeFor(ctx, model, request, 'view')).detail(parseId((request.query as Query).id))),
  );

  app.post(`${base}/update-platform`, async (request) => {
    const query = request.query as Query;
    const store = await storeFor(ctx, model, request, 'edit');
    return ok(request, await store.updatePart(parseId(query.userId, 'userId'), { userType: query.userType }));
  });

  app.post(`${base}/update-info`, async (request) => {
    const body = (request.body ?? {}) as Row;
    const own = Object.fromEntries(Object.entries(body).filter(([k]) => PROFILE_FIELDS.includes(k)));
    return ok(request, await ownStore(request).updatePart(actorOf(request).userId, own));
  });

  app.post(`${base}/update-password`, async (request) => {
    const actor = actorOf(request);
    const { oldPassword = '', newPassword = '', newPassword1 = '' } = { ...(request.query as Query), ...((request.body ?? {}) as Query) };
    if (![oldPassword, newPassword, newPassword1].every((p) => typeof p === 'string' && p !== '')) throw badRequest('passwordFormat');
    if (newPassword !== newPassword1) throw badRequest('passwordMismatch');
    // our client sends the md5 of each password, as the commercial flavour does; the platform's
    // open-source client sends the passwords themselves, hashed here the same way
    const hashed = (password: string) => (isClientHash(password) ? password : clientHash(password));
    if (!(await identity.checkCredential('user', actor.userId, hashed(oldPassword)))) throw badRequest('oldPasswordWrong');
    // a password someone else knows is no change: the old one again, or the tenant's initial one
    if (hashed(newPassword) === hashed(oldPassword)) throw badRequest('passwordUnchanged');
    if (hashed(newPassword) === (await identity.initialPassword(ctx.db, actor.tenantId))) throw badRequest('passwordIsInitial');
    await ctx.db.transaction(async (tx) => {
      await identity.setCredential(tx, 'user', actor.userId, hashed(newPassword));
      await identity.revokeUsers(tx, [actor.userId]);
    });
    return ok(request);
  });

  /** The users named, all of the caller's tenant (another tenant's ids are "not found"). */
  const tenantUsers = async (request: FastifyRequest, raw: string | undefined) => {
    const ids = parseIds(raw, 'userIds');
    const store = new EntityStore(ctx, model, actorOf(request));
    for (const id of ids) await store.detail(id);
    return ids;
  };

  app.post(`${base}/reset-password`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'user_reset');
    const ids = await tenantUsers(request, (request.query as Query).userIds);
    const initial = await readParam(ctx.db, ctx.catalog, actor.tenantId, PARAMS.initPassword, '');
    if (!initial) throw badRequest('missingParam', { param: PARAMS.initPassword });
    await ctx.db.transaction(async (tx) => {
      for (const id of ids) await identity.setCredential(tx, 'user', id, clientHash(initial), { mustChange: true });
      await identity.revokeUsers(tx, ids);
    });
    return ok(request);
  });

  app.post(`${base}/unlock`, async (request) => {
    await ctx.access.checkButton(actorOf(request), 'user_unlock');
    const ids = await tenantUsers(request, (request.query as Query).userIds);
    await ctx.db.transaction((tx) => identity.unlock(tx, ids));
    auditEvent(ctx, request, { event: 'unlock', subject: `user ${ids.join(',')}` });
    return ok(request);
  });

  app.post(`${base}/grant`, async (request) => {
    await ctx.access.checkButton(actorOf(request), 'user_role');
    const query = request.query as Query;
    const ids = await tenantUsers(request, query.userIds);
    const roleIds = parseIds(query.roleIds, 'roleIds').join(',');
    const store = new EntityStore(ctx, model, actorOf(request));
    for (const id of ids) await store.updatePart(id, { roleId: roleIds });
    auditEvent(ctx, request, { event: 'grant', subject: `user ${ids.join(',')}`, detail: { roleIds } });
    return ok(request);
  });

  // Workbooks. The two downloads are opened by the browser (window.open), so they take the token as
  // ?blade-auth= too; an unset search field comes as the text "undefined" and means no filter.
  app.get(`${base}/export-user`, { config: DOWNLOAD }, async (request, reply) => {
    const query = Object.fromEntries(Object.entries(request.query as Query).filter(([, v]) => v !== 'undefined'));
    const store = await storeFor(ctx, model, request, 'export');
    return sendWorkbook(reply, await exportUsers(ctx, store, parseListParams(model, query), request.lang));
  });

  // the template is for importing: it needs the grant an import needs
  app.get(`${base}/export-template`, { config: DOWNLOAD }, async (request, reply) => {
    await ctx.access.check(actorOf(request), model, 'add');
    return sendWorkbook(reply, await userTemplate(model, request.lang));
  });

  // every row is written as user/submit would write it (user-excel.ts); ?isCovered=1 (or true)
  // updates the accounts that exist, which needs the edit grant as well
  app.post(`${base}/import-user`, async (request) => {
    const actor = actorOf(request);
    const raw = (request.query as Query).isCovered ?? '';
    const covered = raw === '1' || raw.toLowerCase() === 'true';
    const store = await storeFor(ctx, model, request, 'add');
    if (covered) await ctx.access.check(actor, model, 'edit');
    // new accounts get the tenant's initial password, as a reset gives it
    const password = await readParam(ctx.db, ctx.catalog, actor.tenantId, PARAMS.initPassword, '');
    if (!password) throw badRequest('missingParam', { param: PARAMS.initPassword });
    const file = await readUploadedFile(request, options.importMaxBytes, workbookName);
    let book: Awaited<ReturnType<typeof readWorkbook>>;
    try {
      book = await readWorkbook(file.body);
    } catch (err) {
      if (err instanceof WorkbookTooLarge) throw badRequest('importUnpackedTooLarge', { limit: sizeText(UNPACKED_LIMIT) });
      if (err instanceof NotAWorkbook) throw badRequest('importNotWorkbook', { name: file.filename });
      throw err;
    }
    const report = await importUsers(ctx, store, sheetRows(book, model, request.lang), { covered, password });
    return envelope(200, report, t('importDone', request.lang, { ...report }));
  });

  app.post(`${base}/register-guest`, async (request) => {
    const body = { ...(request.query as Query), ...((request.body ?? {}) as Query) };
    const tenantId = body.tenantId ?? '';
    const [tenant] = await ctx.db.query(`SELECT 1 FROM ${q(ctx.catalog.entities.tenant.table)} WHERE tenant_id = $1 AND is_deleted = 0`, [
      tenantId,
    ]);
    if (!tenant) throw badRequest('tenantNotFound');
    if ((await readParam(ctx.db, ctx.catalog, tenantId, PARAMS.registerUser, 'false')) !== 'true')
      throw new AppError(403, 'registerClosed');
    const guest = { tenantId, userId: '0', deptId: null, lang: request.lang };
    const store = new EntityStore(ctx, model, guest);
    await store.create({ account: body.account, password: body.password, name: body.name, realName: body.name, userType: '1', status: 2 });
    return envelope(200, null, t('registered', request.lang));
  });
}
