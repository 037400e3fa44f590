// The rules of x-cumulative in the write pipeline of its documents:
//  - on save: the period moves forward only (later than every approved or approving one of the group);
//    previous values are computed here from the approved documents, whatever the client sent;
//  - on submit (status → approving): one document of a group in approval at a time, the period rule
//    again, previous values refreshed (what was approved meanwhile counts);
//  - on any later status (approved, rejected, …): the contract's totals are recomputed;
//  - final settlements (contract.final, R-ORDER-2): none of the contract's settlements is saved or
//    submitted after an approved one, it is submitted only when the others are all approved, and the
//    contract follows it (its final amount and statuses), reopened when none is approved any more.
import { applyPrevious, groupOf } from '../../engine/cumulative/cumulative.ts';
import { t } from '../../../../engine/i18n/messages.ts';
import type { EntityModel, Label } from '../../../../engine/model/types.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { EntityStore, type Actor, type EntityHooks, type StoreContext } from '../../../../server/db/store.ts';
import { AppError, ValidationFailed } from '../../../../server/errors.ts';
import { Cumulatives, FinalSettlements, writeFields, writeRowFields } from './service.ts';
import { cumulativeOf } from '../../engine/cumulative/model.ts';

/** The group's fields joined for messages: 项目/采购合同/合同乙方. */
function groupLabel(model: EntityModel): Label {
  const labels = cumulativeOf(model)!.keys.map((k) => model.fieldMap[k].label);
  return { zh: labels.map((l) => l.zh).join('/'), en: labels.map((l) => l.en).join(' / ') };
}

class CumulativeRules {
  constructor(
    private readonly ctx: StoreContext,
    private readonly service: Cumulatives,
    private readonly finals: FinalSettlements,
    private readonly model: EntityModel,
  ) {}

  private get spec() {
    return cumulativeOf(this.model)!;
  }

  /** Periods move forward only: later than the group's approved and approving documents. */
  async checkPeriod(tx: Queryable, actor: Actor, record: Row, id?: string) {
    const spec = this.spec;
    const group = groupOf(spec, record);
    if (!spec.period || !group || !record[spec.period]) return;
    const last = await this.service.latestPeriod(tx, actor.tenantId, this.model, group, id);
    const period = String(record[spec.period]);
    if (last !== null && period <= last) {
      const field = this.model.fieldMap[spec.period].label;
      throw new ValidationFailed([{ path: `/${spec.period}`, message: t('cumulativePeriod', actor.lang, { field, period, last }) }]);
    }
  }

  /** One document of a group in approval at a time; concurrent submissions of a group queue on a lock. */
  async checkApproving(tx: Queryable, actor: Actor, record: Row, id: string) {
    const group = groupOf(this.spec, record);
    if (!group) return;
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${actor.tenantId}|${this.model.key}|${JSON.stringify(group)}`]);
    const other = await this.service.approving(tx, actor.tenantId, this.model, group, id);
    if (other)
      throw new AppError(400, 'cumulativeApproving', {
        entity: this.model.label,
        code: other.code ?? other.id,
        group: groupLabel(this.model),
      });
  }

  /** R-ORDER-2: nothing more is settled on a contract once its final settlement is approved. */
  async checkFinalized(tx: Queryable, actor: Actor, record: Row, id?: string) {
    const c = this.spec.contract;
    const value = c && record[c.field];
    if (!c || value === undefined || value === null || value === '') return;
    const final = await this.finals.approvedFinal(tx, actor, c.entity, String(value), id);
    if (final)
      throw new AppError(400, 'contractFinalized', {
        contract: String(value),
        entity: final.model.label,
        code: String(final.record[final.model.code?.field ?? 'id'] ?? final.record.id),
      });
  }

  /** R-ORDER-2: a final settlement is submitted only when every interim settlement of the contract is approved (or deleted). */
  async checkInterimsApproved(tx: Queryable, actor: Actor, record: Row) {
    const c = this.spec.contract;
    const value = c?.final && record[c.field];
    if (!c || value === undefined || value === null || value === '') return;
    const open = await this.finals.unapprovedInterim(tx, actor.tenantId, c.entity, String(value));
    if (open) throw new AppError(400, 'finalNeedsApproved', { entity: open.model.label, code: open.code });
  }

  /** Writes the previous values (and what derives from them) of a stored document. */
  async refresh(tx: Queryable, actor: Actor, record: Row) {
    const spec = this.spec;
    const group = groupOf(spec, record);
    if (!group) return;
    const period = spec.period && record[spec.period] ? String(record[spec.period]) : undefined;
    const answer = await this.service.answer(tx, actor, this.model, group, { period, excludeId: String(record.id) });
    const filled = applyPrevious(this.model, record, answer);
    const model = this.model;
    await writeFields(
      tx,
      model.table,
      [...Object.keys(spec.header), ...model.computeOrder].map((f) => model.fieldMap[f]),
      String(record.id),
      filled,
    );
    const lines = spec.lines;
    if (!lines) return;
    const detail = model.details.find((d) => d.name === lines.detail)!;
    const columns = [...Object.keys(lines.previous), ...detail.computeOrder].map((f) => detail.fieldMap[f]);
    await writeRowFields(tx, detail.table, columns, (filled[lines.detail] as Row[]) ?? []);
  }

  read(tx: Queryable, actor: Actor, id: string): Promise<Row> {
    return new EntityStore(this.ctx, this.model, actor).detail(id, 'id', tx);
  }

  hooks(): EntityHooks {
    return {
      beforeWrite: async (event) => {
        await this.checkFinalized(event.tx, event.actor, event.record, event.id);
        await this.checkPeriod(event.tx, event.actor, event.record, event.id);
      },
      afterWrite: async (event) => {
        await this.refresh(event.tx, event.actor, await this.read(event.tx, event.actor, event.id));
      },
      afterStatus: async (event) => {
        const record = await this.read(event.tx, event.actor, event.id);
        if (event.status === 'approving') {
          await this.checkApproving(event.tx, event.actor, record, event.id);
          await this.checkFinalized(event.tx, event.actor, record, event.id);
          await this.checkInterimsApproved(event.tx, event.actor, record);
          await this.checkPeriod(event.tx, event.actor, record, event.id);
          await this.refresh(event.tx, event.actor, record);
        } else {
          await this.service.writeBack(event.tx, event.actor, this.model, record);
          await this.finals.settle(event.tx, event.actor, this.model, record);
        }
      },
    };
  }
}

/** The hooks of every document type with x-cumulative. */
export function cumulativeHooks(ctx: StoreContext): Record<string, EntityHooks> {
  const out: Record<string, EntityHooks> = {};
  const service = new Cumulatives(ctx);
  const finals = new FinalSettlements(ctx, service);
  for (const model of Object.values(ctx.catalog.entities)) {
    if (cumulativeOf(model)) out[model.key] = new CumulativeRules(ctx, service, finals, model).hooks();
  }
  return out;
}
