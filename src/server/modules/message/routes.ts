// /api/blade-message/message: the caller's inbox and sent messages, reading, deleting, sending and
// the live subscription (server-sent events). Sending is the generic save/submit of the message
// entity (its hooks write the receipts and the live event; it needs the message_add button);
// everything here reads or writes only the caller's own receipts and messages.
//   GET  my/topList     {messageList, unReadCount}: the newest messages and the unread count
//   GET  my/list        the caller's received messages (paged; filters of the message fields, isRead)
//   GET  my/sendList    the caller's sent messages, with receiver and read counts
//   GET  detail?id=     a received message (opening it marks it read); the sender, or a holder of
//                       the message menu, reads the message itself
//   GET  sendDetail?id= a sent message with each recipient's read state
//   POST remove?ids=    a recipient's ids leave their inbox; a sender's ids are withdrawn from all
//   POST readAll        marks every received message read
//   POST update/submit/updatePart with an id: corrects the text of a sent message (title, content,
//                       link); the recipients stay those it was sent to
//   GET  subscribe      text/event-stream of events `ready`, `message`, `changed`, `refresh`, `expired`
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import { localizeRecord } from '../../../engine/i18n/stored-text.ts';
import { parseListParams } from '../../../engine/query/list-params.ts';
import { nowText } from '../../clock.ts';
import type { Row } from '../../db/db.ts';
import { filterSql } from '../../db/filter-sql.ts';
import { orderSql, Params, q, selectList, toRecord } from '../../db/sql.ts';
import { EntityStore, parseId, parseIds, type Actor, type Page } from '../../db/store.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import { actorOf, bearerToken } from '../../http/auth.ts';
import { storeFor, type RouteContext } from '../../http/entity-routes.ts';
import { envelope } from '../../http/envelope.ts';
import type { SubscriptionHub } from '../../realtime/hub.ts';
import { openEventStream } from '../../realtime/sse.ts';
import type { TokenService } from '../../security/tokens.ts';
import { RECEIVER_TABLE, recipientsOf } from './service.ts';

type Query = Record<string, string | undefined>;

const TOP_LIST_SIZE = 5;
/** The text of a sent message may be corrected; its type and recipients may not. */
const CORRECTABLE = ['title', 'content', 'path'];

export interface MessageRouteDeps {
  hub: SubscriptionHub;
  tokens: TokenService;
}

export function registerMessageRoutes(app: FastifyInstance, ctx: RouteContext, { hub, tokens }: MessageRouteDeps) {
  const model = ctx.catalog.entities.message;
  const base = model.api;
  const table = q(model.table);
  const ok = (request: FastifyRequest, data: unknown = null, key: 'ok' | 'removed' | 'updated' = 'ok') =>
    envelope(200, data, t(key, request.lang));
  const ownStore = (actor: Actor) => new EntityStore(ctx, model, actor);
  const changed = (actor: Actor, userIds: string[] = [actor.userId]) =>
    hub.notifier.publish(ctx.db, { tenantId: actor.tenantId, userIds, name: 'changed' });

  /** The caller's received messages: receipts joined to live messages. */
  async function inbox(actor: Actor, query: Query): Promise<Page> {
    const { isRead, ...rest } = query;
    const list = parseListParams(model, rest);
    const params = new Params();
    const where = [
      `r.tenant_id = ${params.add(actor.tenantId)}`,
      `r.user_id = ${params.add(actor.userId)}`,
      'r.is_deleted = 0',
      'm.is_deleted = 0',
    ];
    for (const filter of list.filters) where.push(filterSql(filter, model, params, 'm'));
    if (isRead !== undefined && isRead !== '') {
      if (isRead !== '0' && isRead !== '1') throw badRequest('badFilterValue', { field: 'isRead', value: isRead });
      where.push(`r.is_read = ${params.add(Number(isRead))}`);
    }
    const from = `FROM ${RECEIVER_TABLE} r JOIN ${table} m ON m.id = r.message_id WHERE ${where.join(' AND ')}`;
    const [{ total }] = await ctx.db.query<{ total: number }>(`SELECT count(*)::int AS total ${from}`, params.values);
    const offset = (list.current - 1) * list.size;
    let records: Row[] = [];
    if (offset < total) {
      const rows = await ctx.db.query(
        `SELECT ${selectList(model.columns, 'm')}, r.is_read AS "isRead", to_char(r.read_time, 'YYYY-MM-DD HH24:MI:SS') AS "readTime"
         ${from} ORDER BY ${orderSql(list.sort, model.fieldMap, 'm')} LIMIT ${params.add(list.size)} OFFSET ${params.add(offset)}`,
        params.values,
      );
      records = rows.map((r) => localizeRecord(model.columns, toRecord(r, model.columns), actor.lang));
    }
    return { records, total, size: list.size, current: list.current, pages: Math.ceil(total / list.size) };
  }

  async function unreadCount(actor: Actor): Promise<number> {
    const [{ n }] = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${RECEIVER_TABLE} r JOIN ${table} m ON m.id = r.message_id AND m.is_deleted = 0
        WHERE r.tenant_id = $1 AND r.user_id = $2 AND r.is_deleted = 0 AND r.is_read = 1`,
      [actor.tenantId, actor.userId],
    );
    return n;
  }

  /** The caller's receipt of a message, if any. */
  async function receipt(actor: Actor, id: string): Promise<{ isRead: number; readTime: string | null } | undefined> {
    const [row] = await ctx.db.query<{ isRead: number; readTime: string | null }>(
      `SELECT is_read AS "isRead", to_char(read_time, 'YYYY-MM-DD HH24:MI:SS') AS "readTime" FROM ${RECEIVER_TABLE}
        WHERE tenant_id = $1 AND user_id = $2 AND message_id = $3 AND is_deleted = 0`,
      [actor.tenantId, actor.userId, id],
    );
    return row;
  }

  /** Sender or holder of the message menu: may read a message without being its recipient. */
  async function mayManage(actor: Actor, message: Row): Promise<boolean> {
    if (String(message.createUser) === actor.userId) return true;
    try {
      await ctx.access.check(actor, model, 'view');
      return true;
    } catch (err) {
      if (err instanceof AppError && err.status === 403) return false;
      throw err;
    }
  }

  async function withCounts(tenantId: string, records: Row[]): Promise<Row[]> {
    if (!records.length) return records;
    const rows = await ctx.db.query<{ id: string; receiverCount: number; readCount: number }>(
      `SELECT message_id::text AS id, count(*)::int AS "receiverCount", count(*) FILTER (WHERE is_read = 0)::int AS "readCount"
         FROM ${RECEIVER_TABLE} WHERE tenant_id = $1 AND message_id = ANY($2::bigint[]) GROUP BY message_id`,
      [tenantId, records.map((r) => r.id)],
    );
    const counts = new Map(rows.map((r) => [r.id, r]));
    return records.map((r) => ({ ...r, receiverCount: counts.get(r.id)?.receiverCount ?? 0, readCount: counts.get(r.id)?.readCount ?? 0 }));
  }

  app.get(`${base}/my/topList`, async (request) => {
    const actor = actorOf(request);
    const size = Math.min(Math.max(Number((request.query as Query).size) || TOP_LIST_SIZE, 1), 20);
    const page = await inbox(actor, { size: String(size) });
    return ok(request, { messageList: page.records, unReadCount: await unreadCount(actor) });
  });

  app.get(`${base}/my/list`, async (request) => ok(request, await inbox(actorOf(request), request.query as Query)));

  app.get(`${base}/my/sendList`, async (request) => {
    const actor = actorOf(request);
    const query = parseListParams(model, { ...(request.query as Query), createUser_equal: actor.userId });
    const page = await ownStore(actor).list(query);
    return ok(request, { ...page, records: await withCounts(actor.tenantId, page.records) });
  });

  app.get(`${base}/detail`, async (request) => {
    const actor = actorOf(request);
    const id = parseId((request.query as Query).id);
    const own = await receipt(actor, id);
    const message = await ownStore(actor).detail(id);
    if (own) {
      if (own.isRead === 1) {
        const now = nowText(ctx.timeZone);
        await ctx.db.query(
          `UPDATE ${RECEIVER_TABLE} SET is_read = 0, read_time = $4 WHERE tenant_id = $1 AND user_id = $2 AND message_id = $3 AND is_read = 1`,
          [actor.tenantId, actor.userId, id, now],
        );
        await changed(actor);
        return ok(request, { ...message, isRead: 0, readTime: now });
      }
      return ok(request, { ...message, ...own });
    }
    if (!(await mayManage(actor, message))) throw notFound(model.label);
    return ok(request, message);
  });

  app.get(`${base}/sendDetail`, async (request) => {
    const actor = actorOf(request);
    const id = parseId((request.query as Query).id);
    const message = await ownStore(actor).detail(id);
    if (!(await mayManage(actor, message))) throw notFound(model.label);
    const receivers = await ctx.db.query(
      `SELECT r.user_id::text AS "userId", coalesce(nullif(u.real_name, ''), u.account) AS "realName", r.is_read AS "isRead",
              to_char(r.read_time, 'YYYY-MM-DD HH24:MI:SS') AS "readTime"
         FROM ${RECEIVER_TABLE} r LEFT JOIN ${q(ctx.catalog.entities.user.table)} u ON u.id = r.user_id AND u.tenant_id = r.tenant_id
        WHERE r.tenant_id = $1 AND r.message_id = $2 ORDER BY r.is_read DESC, u.real_name LIMIT 1000`,
      [actor.tenantId, id],
    );
    const [counted] = await withCounts(actor.tenantId, [message]);
    return ok(request, { ...counted, receivers });
  });

  app.post(`${base}/readAll`, async (request) => {
    const actor = actorOf(request);
    const rows = await ctx.db.query(
      `UPDATE ${RECEIVER_TABLE} SET is_read = 0, read_time = $3 WHERE tenant_id = $1 AND user_id = $2 AND is_read = 1 AND is_deleted = 0 RETURNING message_id`,
      [actor.tenantId, actor.userId, nowText(ctx.timeZone)],
    );
    if (rows.length) await changed(actor);
    return ok(request, { count: rows.length });
  });

  app.post(`${base}/remove`, async (request) => {
    const actor = actorOf(request);
    const query = request.query as Query;
    const body = (request.body ?? {}) as Query;
    const raw = query.ids ?? query.id ?? body.ids ?? body.id;
    const ids = parseIds(raw === undefined ? undefined : String(raw));
    const received = (
      await ctx.db.query<{ id: string }>(
        `SELECT message_id::text AS id FROM ${RECEIVER_TABLE} WHERE tenant_id = $1 AND user_id = $2 AND message_id = ANY($3::bigint[]) AND is_deleted = 0`,
        [actor.tenantId, actor.userId, ids],
      )
    ).map((r) => r.id);
    const sent = ids.filter((id) => !received.includes(id));
    // a withdrawal is checked whole before anything changes: the caller's own messages, or the delete button
    if (sent.length) {
      const own = await ctx.db.query<{ id: string }>(
        `SELECT id::text AS id FROM ${table} WHERE tenant_id = $1 AND create_user = $2 AND id = ANY($3::bigint[]) AND is_deleted = 0`,
        [actor.tenantId, actor.userId, sent],
      );
      // someone else's message needs the delete button (as every generic removal does), then must exist
      if (own.length !== sent.length) await ctx.access.check(actor, model, 'delete');
      await ownStore(actor).remove(sent);
    }
    if (received.length) {
      await ctx.db.query(
        `UPDATE ${RECEIVER_TABLE} SET is_deleted = 1 WHERE tenant_id = $1 AND user_id = $2 AND message_id = ANY($3::bigint[])`,
        [actor.tenantId, actor.userId, received],
      );
      await changed(actor);
    }
    return ok(request, null, 'removed');
  });

  const correct = async (request: FastifyRequest) => {
    const body = (request.body ?? {}) as Row;
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('badJson');
    const actor = actorOf(request);
    const id = parseId(body.id === undefined || body.id === null ? undefined : String(body.id));
    const message = await ownStore(actor).detail(id);
    if (String(message.createUser) !== actor.userId) await ctx.access.check(actor, model, 'edit');
    const text = Object.fromEntries(Object.entries(body).filter(([k]) => CORRECTABLE.includes(k)));
    const updated = await ownStore(actor).updatePart(id, text);
    await changed(actor, await recipientsOf(ctx.db, actor.tenantId, [id]));
    return ok(request, updated, 'updated');
  };
  app.post(`${base}/update`, correct);
  app.post(`${base}/updatePart`, correct);
  app.post(`${base}/submit`, async (request) => {
    const body = (request.body ?? {}) as Row;
    if (body && typeof body === 'object' && body.id !== undefined && body.id !== null && body.id !== '') return correct(request);
    const store = await storeFor(ctx, model, request, 'add');
    return envelope(200, await store.create(body), t('saved', request.lang));
  });

  app.get(`${base}/subscribe`, async (request, reply) => {
    const actor = actorOf(request);
    const token = bearerToken(request.headers['blade-auth']);
    const claims = token ? ((await tokens.verify(token)) as { exp?: number }) : {};
    openEventStream(hub, request, reply, { tenantId: actor.tenantId, userId: actor.userId, expiresAt: claims.exp });
  });
}
