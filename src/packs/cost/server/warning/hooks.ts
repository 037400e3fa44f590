// The early-warning rules in the write pipeline of every document type that has them (EntityHooks):
//  - after a save (create, update, updatePart): the document's warning records follow what it raises now;
//  - on submit (status → approving): the same, and with the tenant's hard control on, a critical
//    warning refuses the submission (the whole step rolls back: nothing is saved or started);
//  - on a settlement's approval: the same again, since its approval itself may have been late (late_settlement (d));
//  - before a removal: the removed documents' open tips are closed.
// Composed after the cumulative hooks, so a settlement's previous values are written before its caps are read.
import type { EntityModel } from '../../../../engine/model/types.ts';
import { blocking, describe } from '../../engine/warnings/rules.ts';
import type { Queryable } from '../../../../server/db/db.ts';
import { EntityStore, readerFor, type Actor, type EntityHooks, type StoreContext } from '../../../../server/db/store.ts';
import { AppError } from '../../../../server/errors.ts';
import { reevaluatedOnApproval, warnedEntities } from './evaluate.ts';
import { warningFields } from './documents.ts';
import { readSettings, Warnings } from './service.ts';

class WarningRules {
  constructor(
    private readonly ctx: StoreContext,
    private readonly service: Warnings,
    private readonly model: EntityModel,
  ) {}

  /** Evaluates the stored document, refuses a submission hard control forbids, records and announces its tips. */
  async run(tx: Queryable, actor: Actor, id: string, submitting: boolean) {
    const doc = await new EntityStore(this.ctx, this.model, actor).detail(id, 'id', tx);
    // parameters are platform data: on the main database when the tenant's documents are elsewhere
    const settings = await readSettings(await readerFor(this.ctx, 'business', 'platform', actor.tenantId, tx), this.ctx, actor.tenantId);
    const warnings = await this.service.evaluate(tx, actor, this.model, doc, settings);
    const blocked = submitting ? blocking(warnings, settings) : [];
    if (blocked.length) {
      throw new AppError(400, 'warningHardControl', {
        entity: this.model.label,
        code: String(doc[this.model.code?.field ?? 'code'] ?? id),
        details: describe(blocked),
      });
    }
    const added = await this.service.record(tx, actor, this.model, doc, warnings);
    await this.service.notify(tx, actor, this.model, doc, added);
  }

  hooks(): EntityHooks {
    return {
      afterWrite: async (event) => {
        await this.run(event.tx, event.actor, event.id, false);
      },
      afterStatus: async (event) => {
        if (event.status === 'approving') await this.run(event.tx, event.actor, event.id, true);
        else if (event.status === 'approved' && reevaluatedOnApproval(this.model)) await this.run(event.tx, event.actor, event.id, false);
      },
      beforeRemove: async (event) => {
        await this.service.sourcesRemoved(event.tx, event.actor, this.model, event.ids);
      },
    };
  }
}

/** The hooks of every document type with early-warning rules. */
export function warningHooks(ctx: StoreContext): Record<string, EntityHooks> {
  const out: Record<string, EntityHooks> = {};
  warningFields(ctx.catalog); // a schema set lacking a role or field role the rules read refuses to start, naming it
  const service = new Warnings(ctx);
  for (const model of warnedEntities(ctx.catalog)) out[model.key] = new WarningRules(ctx, service, model).hooks();
  return out;
}
