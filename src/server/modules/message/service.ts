// In-app messages. A message is one record of its sender (blade_message, from the schema); each
// recipient holds a receipt (blade_message_receiver) with its own read and deleted state. Who
// receives a message is decided when it is sent, by its type:
//   1 ordinary            the chosen users (receiverIds)
//   2 department broadcast every user of the chosen departments and their sub-departments (deptIds)
//   3 approval            the users a workflow task reached; sent by the system only (sendSystemMessage)
//   4 role broadcast      every user holding one of the chosen roles (roleIds)
// Only active users of the sender's tenant receive; a broadcast skips its sender. Receipts are
// written in the sending transaction, and so is the live event, which therefore reaches the
// recipients' open browsers only once the message is stored.
import { t } from '../../../engine/i18n/messages.ts';
import { storeText, type StoredText } from '../../../engine/i18n/stored-text.ts';
import type { EntityCatalog } from '../../../engine/model/types.ts';
import { nowText } from '../../clock.ts';
import type { Queryable, Row } from '../../db/db.ts';
import { Params, q } from '../../db/sql.ts';
import { EntityStore, type Actor, type EntityHooks, type StoreContext } from '../../db/store.ts';
import { AppError } from '../../errors.ts';
import type { Notifier } from '../../realtime/notifier.ts';

export const RECEIVER_TABLE = 'blade_message_receiver';

/** Receipts: one per recipient and message (not a document, so not a schema). */
export const MESSAGE_DDL = `
CREATE TABLE IF NOT EXISTS ${RECEIVER_TABLE} (
  message_id bigint NOT NULL,
  user_id bigint NOT NULL,
  tenant_id varchar(12) NOT NULL,
  is_read smallint NOT NULL DEFAULT 1,
  read_time timestamp,
  is_deleted smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (message_id, user_id)
);
CREATE INDEX IF NOT EXISTS ${RECEIVER_TABLE}_inbox ON ${RECEIVER_TABLE} (tenant_id, user_id, message_id DESC) WHERE is_deleted = 0;
CREATE INDEX IF NOT EXISTS ${RECEIVER_TABLE}_unread ON ${RECEIVER_TABLE} (tenant_id, user_id) WHERE is_deleted = 0 AND is_read = 1;
`;

/** The sender of approval messages: the system itself, not a user. */
export const SYSTEM_SENDER = '0';
const SYSTEM_NAME = '系统';

export const MESSAGE_TYPES = { ordinary: '1', department: '2', approval: '3', role: '4' } as const;

/** What a live `message` event carries: enough for the popup, the content is read on opening. */
export interface MessageSummary {
  id: string;
  title: string;
  type: string;
  createUserName: string;
  createTime: string;
}

const idList = (value: unknown): string[] =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/**
 * Writes the receipts of a new message and returns the recipients' ids. One statement: the users
 * are chosen by the message's type inside the database.
 */
export async function writeReceipts(
  tx: Queryable,
  catalog: EntityCatalog,
  actor: Actor,
  messageId: string,
  record: Row,
): Promise<string[]> {
  const users = q(catalog.entities.user.table);
  const depts = q(catalog.entities.dept.table);
  const params = new Params();
  const tenant = `${params.add(actor.tenantId)}::varchar`;
  const where = [`u.tenant_id = ${tenant}`, 'u.is_deleted = 0', 'u.status = 1'];
  const type = String(record.type);
  if (type === MESSAGE_TYPES.ordinary || type === MESSAGE_TYPES.approval) {
    where.push(`u.id = ANY(${params.add(idList(record.receiverIds))}::bigint[])`);
  } else if (type === MESSAGE_TYPES.department) {
    const ids = params.add(idList(record.deptIds));
    where.push(`string_to_array(u.dept_id, ',') && ARRAY(SELECT d.id::text FROM ${depts} d WHERE d.tenant_id = ${tenant} AND d.is_deleted = 0
      AND (d.id = ANY(${ids}::bigint[]) OR string_to_array(d.ancestors, ',') && ${ids}::text[]))`);
    where.push(`u.id <> ${params.add(actor.userId)}`);
  } else if (type === MESSAGE_TYPES.role) {
    where.push(`string_to_array(u.role_id, ',') && ${params.add(idList(record.roleIds))}::text[]`);
    where.push(`u.id <> ${params.add(actor.userId)}`);
  } else {
    return [];
  }
  const rows = await tx.query<{ userId: string }>(
    `INSERT INTO ${RECEIVER_TABLE} (message_id, user_id, tenant_id) SELECT ${params.add(messageId)}::bigint, u.id, ${tenant} FROM ${users} u WHERE ${where.join(' AND ')}
     ON CONFLICT DO NOTHING RETURNING user_id::text AS "userId"`,
    params.values,
  );
  return rows.map((r) => r.userId);
}

async function senderName(tx: Queryable, catalog: EntityCatalog, actor: Actor): Promise<string> {
  if (actor.userId === SYSTEM_SENDER) return SYSTEM_NAME;
  const [row] = await tx.query<{ name: string | null }>(
    `SELECT coalesce(nullif(real_name, ''), name, account) AS name FROM ${q(catalog.entities.user.table)} WHERE id = $1 AND tenant_id = $2`,
    [actor.userId, actor.tenantId],
  );
  return row?.name ?? '';
}

/** The users holding a live receipt of these messages. */
export async function recipientsOf(db: Queryable, tenantId: string, messageIds: string[]): Promise<string[]> {
  const rows = await db.query<{ userId: string }>(
    `SELECT DISTINCT user_id::text AS "userId" FROM ${RECEIVER_TABLE} WHERE tenant_id = $1 AND message_id = ANY($2::bigint[]) AND is_deleted = 0`,
    [tenantId, messageIds],
  );
  return rows.map((r) => r.userId);
}

export interface MessageHookDeps {
  catalog: EntityCatalog;
  notifier: Notifier;
  timeZone: string;
}

/** The message entity's part of the write pipeline: sender name, receipts, live event. */
export function messageHooks({ catalog, notifier, timeZone }: MessageHookDeps): Record<string, EntityHooks> {
  return {
    message: {
      validate({ body, creating, actor }) {
        if (creating && String(body.type) === MESSAGE_TYPES.approval && actor.userId !== SYSTEM_SENDER) {
          return [{ path: '/type', message: t('messageSystemOnly', actor.lang) }];
        }
        return [];
      },
      async beforeWrite({ tx, actor, record, creating }) {
        if (creating) record.createUserName = await senderName(tx, catalog, actor);
      },
      async afterWrite({ tx, actor, id, record, creating }) {
        if (!creating) return;
        const userIds = await writeReceipts(tx, catalog, actor, id, record);
        if (!userIds.length) throw new AppError(400, 'messageNoRecipients');
        const summary: MessageSummary = {
          id,
          title: String(record.title),
          type: String(record.type),
          createUserName: String(record.createUserName ?? ''),
          createTime: nowText(timeZone),
        };
        await notifier.publish(tx, { tenantId: actor.tenantId, userIds, name: 'message', data: summary });
      },
      async beforeRemove({ tx, actor, ids }) {
        await notifier.publish(tx, { tenantId: actor.tenantId, userIds: await recipientsOf(tx, actor.tenantId, ids), name: 'changed' });
      },
    },
  };
}

/**
 * Sends an approval message (type 3) from the system to users of a tenant: what the workflow
 * engine calls when a task reaches someone. Title and content are stored texts (message key and
 * parameters), read in each recipient's language. Returns the stored message.
 */
export async function sendSystemMessage(
  ctx: StoreContext,
  message: { tenantId: string; receiverIds: readonly string[]; title: StoredText; content: StoredText; path?: string },
): Promise<Row> {
  const actor: Actor = { tenantId: message.tenantId, userId: SYSTEM_SENDER, deptId: null, lang: 'zh' };
  const store = new EntityStore(ctx, ctx.catalog.entities.message, actor);
  return store.create({
    type: MESSAGE_TYPES.approval,
    receiverIds: message.receiverIds.join(','),
    title: storeText(message.title),
    content: storeText(message.content),
    ...(message.path ? { path: message.path } : {}),
  });
}
