// Early warnings of a document: evaluate its rules, keep its warning records (role warning.record) in step (one open tip per
// rule and line: re-saving updates it, a problem fixed closes it), and tell the project's responsible
// users about new ones through the message module (type 3, as approval messages).
import { storeText, textRef } from '../../../../engine/i18n/stored-text.ts';
import { fieldsWithRoles, fieldWithRole, hasRole } from '../../../../engine/model/roles.ts';
import type { EntityCatalog, EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import { DEFAULT_WARN_SETTINGS, WARN_TYPES, type WarnSettings, type Warning } from '../../engine/warnings/rules.ts';
import { nowText } from '../../../../server/clock.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { q } from '../../../../server/db/sql.ts';
import { EntityStore, type Actor, type StoreContext } from '../../../../server/db/store.ts';
import { ValidationFailed } from '../../../../server/errors.ts';
import { inTransaction } from '../../../../server/modules/flow/tx.ts';
import { sendSystemMessage } from '../../../../server/modules/message/service.ts';
import { readParams } from '../../../../server/modules/system/params.ts';
import { evaluatorOf } from './evaluate.ts';
import { COUNTERPARTY_ROLE, WARNING_ROLES, warningDocuments } from './documents.ts';
import { Figures } from './figures.ts';

/** The tenant parameters of the rules (seeded on the platform tenant; a tenant may set its own). */
export const WARN_PARAMS = {
  hardControl: 'warn.hardControl',
  demandCriticalPercent: 'warn.demandCriticalPercent',
  priceTolerancePercent: 'warn.priceTolerancePercent',
  supplementaryPercent: 'warn.supplementaryPercent',
  nearContractPercent: 'warn.nearContractPercent',
  settlementSpanMonths: 'warn.settlementSpanMonths',
  inventoryLossPercent: 'warn.inventoryLossPercent',
  overusePercent: 'warn.overusePercent',
  smallSettlementCount: 'warn.smallSettlementCount',
  smallSettlementPercent: 'warn.smallSettlementPercent',
  nearBudgetPercent: 'warn.nearBudgetPercent',
  approvalStepDays: 'warn.approvalStepDays',
  approvalTotalDays: 'warn.approvalTotalDays',
} as const satisfies Record<keyof WarnSettings, string>;

const OPEN = ['unread', 'read'];
const SYSTEM_HANDLER = '系统';
const RESOLVED = '问题已消除:来源单据重新保存后不再触发此预警';
const SOURCE_REMOVED = '来源单据已删除';

export async function readSettings(db: Queryable, ctx: StoreContext, tenantId: string): Promise<WarnSettings> {
  const settings: Record<string, unknown> = {};
  const stored = await readParams(db, ctx.catalog, tenantId, Object.values(WARN_PARAMS));
  for (const [name, key] of Object.entries(WARN_PARAMS) as [keyof WarnSettings, string][]) {
    const fallback = DEFAULT_WARN_SETTINGS[name];
    const raw = (stored.get(key) ?? String(fallback)).trim();
    if (typeof fallback === 'boolean') settings[name] = raw === 'true';
    else settings[name] = Number.isFinite(Number(raw)) && raw !== '' ? Number(raw) : fallback;
  }
  return settings as unknown as WarnSettings;
}

/** What a tip links to besides its document: the project, the expense contract and the counterparty. */
export interface TipLinks {
  projectId: string;
  contractCode?: string;
  counterpartyId?: string;
}

/** The fields of a tip (role warning.record) that hold its links, found by the roles of what they refer to. */
interface TipFields {
  projectRef: string;
  contractRef?: string;
  counterpartyRef?: string;
  goodsRef?: string;
}

const tipFieldsOf = new WeakMap<EntityCatalog, TipFields>();

function tipFields(catalog: EntityCatalog): TipFields {
  let found = tipFieldsOf.get(catalog);
  if (!found) {
    const { entities } = catalog;
    const tip = warningDocuments(catalog).tip;
    const name = (role: string) => fieldWithRole(entities, tip, role)?.name;
    found = {
      projectRef: fieldsWithRoles(entities, tip, WARNING_ROLES.tip, [WARNING_ROLES.projectRecord])[WARNING_ROLES.projectRecord].name,
      contractRef: name(WARNING_ROLES.contract),
      counterpartyRef: name(COUNTERPARTY_ROLE),
      goodsRef: name(WARNING_ROLES.goods),
    };
    tipFieldsOf.set(catalog, found);
  }
  return found;
}

/** The fields of a document type that hold its links, found once per type (it is read on every save). */
const linkFieldsOf = new WeakMap<EntityModel, Partial<Record<keyof TipLinks, FieldModel>>>();

function linkFields(catalog: EntityCatalog, model: EntityModel): Partial<Record<keyof TipLinks, FieldModel>> {
  let found = linkFieldsOf.get(model);
  if (!found) {
    const field = (role: string) => fieldWithRole(catalog.entities, model, role);
    found = {
      projectId: field(WARNING_ROLES.projectRecord),
      // a contract's own reference to a contract is the one it supplements: its tips are the contract's own
      contractCode: hasRole(model, WARNING_ROLES.contract) ? undefined : field(WARNING_ROLES.contract),
      counterpartyId: field(COUNTERPARTY_ROLE),
    };
    linkFieldsOf.set(model, found);
  }
  return found;
}

/** A document's links, read by the roles of what its fields refer to. */
export function linksOf(catalog: EntityCatalog, model: EntityModel, doc: Row): TipLinks {
  const fields = linkFields(catalog, model);
  const value = (link: keyof TipLinks) => {
    const v = fields[link] ? doc[fields[link].name] : undefined;
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  return { projectId: value('projectId') ?? '', contractCode: value('contractCode'), counterpartyId: value('counterpartyId') };
}

/** A tip's identity within its document: rule, line and goods. */
const identity = (warnType: unknown, sourceDetailId: unknown, goodsId: unknown) => `${warnType}|${sourceDetailId ?? ''}|${goodsId ?? ''}`;

export class Warnings {
  constructor(private readonly ctx: StoreContext) {}

  private get tip(): EntityModel {
    return warningDocuments(this.ctx.catalog).tip;
  }

  /** The warnings a stored document raises now. */
  async evaluate(tx: Queryable, actor: Actor, model: EntityModel, doc: Row, settings: WarnSettings): Promise<Warning[]> {
    const evaluator = evaluatorOf(model);
    if (!evaluator || !linksOf(this.ctx.catalog, model, doc).projectId) return [];
    return evaluator(new Figures(tx, this.ctx, actor.tenantId), doc, settings, model);
  }

  /**
   * A document's open tips; `ownOnly`: only those its saves raise, not the ones of a periodic check
   * (late settlement (c) on a contract, which carry the month they are about).
   */
  private async openTips(tx: Queryable, tenantId: string, entity: string, sourceId: string, ownOnly = false): Promise<Row[]> {
    const tip = this.tip;
    const col = (f: string) => q(tip.fieldMap[f].column);
    const periodic = ownOnly && tip.fieldMap.period ? ` AND ${col('period')} IS NULL` : '';
    return tx.query<Row>(
      `SELECT id::text AS id, ${col('warnType')} AS "warnType", ${col('sourceDetailId')}::text AS "sourceDetailId", ${col('goodsId')}::text AS "goodsId"
         FROM ${q(tip.table)} WHERE tenant_id = $1 AND ${col('sourceEntity')} = $2 AND ${col('sourceId')} = $3 AND ${col('warnStatus')} = ANY($4::text[])${tip.softDelete ? ' AND is_deleted = 0' : ''}${periodic}`,
      [tenantId, entity, sourceId, OPEN],
    );
  }

  /**
   * Makes the document's open tips the warnings it raises now: a tip of the same rule, line and goods
   * is updated (its read state kept), a new one added, one no longer raised closed. Returns the new ones.
   */
  async record(tx: Queryable, actor: Actor, model: EntityModel, doc: Row, warnings: readonly Warning[]): Promise<Warning[]> {
    const links = linksOf(this.ctx.catalog, model, doc);
    const store = new EntityStore(inTransaction(this.ctx, tx), this.tip, actor);
    const open = new Map(
      (await this.openTips(tx, actor.tenantId, model.key, String(doc.id), true)).map((r) => [
        identity(r.warnType, r.sourceDetailId, r.goodsId),
        String(r.id),
      ]),
    );
    const added: Warning[] = [];
    const seen = new Set<string>();
    for (const w of warnings) {
      const key = identity(w.warnType, w.sourceDetailId, w.goodsId);
      if (seen.has(key)) continue;
      seen.add(key);
      const fields = this.fields(model, doc, w, links);
      const existing = open.get(key);
      if (existing) {
        await store.updatePart(existing, fields);
        open.delete(key);
      } else {
        await this.create(store, { ...fields, warnStatus: 'unread' });
        added.push(w);
      }
    }
    await this.close(tx, actor, [...open.values()], RESOLVED);
    return added;
  }

  /** Adds tips of a periodic check about a document (late settlement (c)), leaving its other tips alone. */
  async add(tx: Queryable, actor: Actor, model: EntityModel, doc: Row, warnings: readonly Warning[], links: TipLinks) {
    const store = new EntityStore(inTransaction(this.ctx, tx), this.tip, actor);
    for (const w of warnings) await this.create(store, { ...this.fields(model, doc, w, links), warnStatus: 'unread' });
  }

  /**
   * Adds a tip. A document may keep goods, a contract or a counterparty that were disabled since
   * (docs/api.md: master data is disabled, not removed); a new tip may not name them, so it is kept without those links rather
   * than refusing the document's save.
   */
  private async create(store: EntityStore, fields: Row) {
    try {
      await store.create(fields);
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err;
      const { goodsRef, counterpartyRef, contractRef } = tipFields(this.ctx.catalog);
      const bare = { ...fields };
      for (const name of [goodsRef, counterpartyRef, contractRef]) if (name) delete bare[name];
      await store.create(bare);
    }
  }

  private fields(model: EntityModel, doc: Row, w: Warning, links: TipLinks): Row {
    const named = tipFields(this.ctx.catalog);
    const link = (name: string | undefined, value: string | undefined) => (name && value ? { [name]: value } : {});
    // stored as its key and parameters, read in the reader's language (x-display message)
    const message = storeText(w.message.ref ?? { zh: w.message.zh, en: w.message.en });
    return {
      [named.projectRef]: links.projectId,
      warnType: w.warnType,
      warnLevel: w.warnLevel,
      sourceEntity: model.key,
      sourceId: String(doc.id),
      sourceCode: String(doc[model.code?.field ?? 'code'] ?? doc.id).slice(0, 32),
      message,
      ...(w.sourceDetailId ? { sourceDetailId: w.sourceDetailId } : {}),
      ...link(named.goodsRef, w.goodsId),
      ...(w.period ? { period: w.period } : {}),
      ...link(named.contractRef, links.contractCode),
      ...link(named.counterpartyRef, links.counterpartyId),
      ...(w.thresholdValue !== undefined ? { thresholdValue: w.thresholdValue } : {}),
      ...(w.actualValue !== undefined ? { actualValue: w.actualValue } : {}),
      ...(w.baseValue !== undefined ? { baseValue: w.baseValue } : {}),
    };
  }

  /** Closes tips: handled by the system, with the reason. */
  async close(tx: Queryable, actor: Actor, ids: readonly string[], reason: string) {
    if (!ids.length) return;
    const tip = this.tip;
    const col = (f: string) => q(tip.fieldMap[f].column);
    await tx.query(
      `UPDATE ${q(tip.table)} SET ${col('warnStatus')} = 'handled', ${col('handlerName')} = $1, ${col('handleOpinion')} = $2, ${col('handledAt')} = $3
        WHERE tenant_id = $4 AND id::text = ANY($5::text[])`,
      [SYSTEM_HANDLER, reason, nowText(this.ctx.timeZone), actor.tenantId, [...ids]],
    );
  }

  /** Closes the open tips of removed documents. */
  async sourcesRemoved(tx: Queryable, actor: Actor, model: EntityModel, ids: readonly string[]) {
    for (const id of ids)
      await this.close(
        tx,
        actor,
        (await this.openTips(tx, actor.tenantId, model.key, id)).map((r) => String(r.id)),
        SOURCE_REMOVED,
      );
  }

  /**
   * The project's responsible users: active users of the tenant whose name is the project's project
   * manager or cost manager; when none is found, the tenant's cost managers (role cost_manager).
   */
  async recipients(tx: Queryable, tenantId: string, projectId: string): Promise<string[]> {
    const projectModel = warningDocuments(this.ctx.catalog).projectRecord;
    const managers = fieldsWithRoles(this.ctx.catalog.entities, projectModel, WARNING_ROLES.projectRecord, ['manager', 'costManager']);
    const users = q(this.ctx.catalog.entities.user.table);
    const roles = q(this.ctx.catalog.entities.role.table);
    const named = await tx.query<{ id: string }>(
      `SELECT u.id::text AS id FROM ${users} u, ${q(projectModel.table)} p
        WHERE p.tenant_id = $1 AND p.id = $2 AND u.tenant_id = $1 AND u.is_deleted = 0 AND u.status = 1
          AND u.real_name IN (p.${q(managers.manager.column)}, p.${q(managers.costManager.column)})`,
      [tenantId, projectId],
    );
    if (named.length) return named.map((r) => r.id);
    const costManagers = await tx.query<{ id: string }>(
      `SELECT u.id::text AS id FROM ${users} u WHERE u.tenant_id = $1 AND u.is_deleted = 0 AND u.status = 1
          AND string_to_array(u.role_id, ',') && ARRAY(SELECT r.id::text FROM ${roles} r WHERE r.tenant_id = $1 AND r.is_deleted = 0 AND r.role_alias = 'cost_manager')`,
      [tenantId],
    );
    return costManagers.map((r) => r.id);
  }

  /** One message listing a document's new warnings to the project's responsible users, read in each one's language. */
  async notify(
    tx: Queryable,
    actor: Actor,
    model: EntityModel,
    doc: Row,
    added: readonly Warning[],
    links = linksOf(this.ctx.catalog, model, doc),
  ) {
    if (!added.length) return;
    const receiverIds = await this.recipients(tx, actor.tenantId, links.projectId);
    if (!receiverIds.length) return;
    const code = String(doc[model.code?.field ?? 'code'] ?? doc.id);
    const lines = added.map((w) =>
      textRef('warning.notifyLine', { type: WARN_TYPES[w.warnType], message: w.message.ref ?? { zh: w.message.zh, en: w.message.en } }),
    );
    await sendSystemMessage(inTransaction(this.ctx, tx), {
      tenantId: actor.tenantId,
      receiverIds,
      title: textRef('warning.notifyTitle', { document: model.label, code, count: added.length }),
      content: textRef('warning.notifyLines', { lines }),
      path: this.tip.menu?.path,
    });
  }
}
