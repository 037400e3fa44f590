// Approval messages (message type 3): when a task reaches someone, and when a submitter's document
// is approved, rejected or terminated. Sent inside the step's transaction through the message
// module, so a rolled-back step sends nothing; a message no active user would receive is skipped.
import type { StoredText } from '../../../engine/i18n/stored-text.ts';
import type { Queryable } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { readerFor, type StoreContext } from '../../db/store.ts';
import { sendSystemMessage } from '../message/service.ts';
import { inTransaction } from './tx.ts';

export interface ApprovalNotice {
  tenantId: string;
  receiverIds: readonly string[];
  title: StoredText;
  content: StoredText;
  /** the client route that handles it (/work/process/<prefix>/handle/…) */
  path?: string;
  /** the receivers are known to be active users (no need to look) */
  active?: boolean;
}

export type ApprovalNotifier = (tx: Queryable, notice: ApprovalNotice) => Promise<void>;

export function messageNotifier(ctx: StoreContext): ApprovalNotifier {
  return async (tx, notice) => {
    if (!notice.receiverIds.length) return;
    const { active: known, ...message } = notice;
    if (known) return void (await sendSystemMessage(inTransaction(ctx, tx), message));
    const users = await readerFor(ctx, 'business', 'platform', notice.tenantId, tx);
    const [active] = await users.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${q(ctx.catalog.entities.user.table)} WHERE tenant_id = $1 AND is_deleted = 0 AND status = 1 AND id = ANY($2::bigint[])`,
      [notice.tenantId, notice.receiverIds],
    );
    if (!active.n) return;
    await sendSystemMessage(inTransaction(ctx, tx), message);
  };
}
