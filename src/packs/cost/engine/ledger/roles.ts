// The roles documents play in the material ledger (x-entity.roles, docs/business-rules.md#material-ledger): the
// ledger's rules, routes and OpenAPI paths know document types only by these, so that a schema set
// binds its own documents to the ledger.
import { entityWithRole, optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import type { EntityCatalog } from '../../../../engine/model/types.ts';

export const LEDGER_ROLES = {
  /** a goods receipt: posts its accepted quantities on approval */
  receipt: 'stock.receipt',
  /** a stocktake: book quantities from the ledger, gains and losses into it */
  count: 'stock.count',
  /** the monthly 收发存 report: posts consumption and transfers out, closes its month */
  report: 'stock.monthlyReport',
  /** turnover materials entering (and leaving) a site */
  turnoverMovement: 'turnover.movement',
  /** a turnover stocktake: book quantity = what is on site */
  turnoverCount: 'turnover.count',
  /** a turnover lease settlement: its lines can be worked out from the movements (R-RENT-2) */
  rentSettlement: 'turnover.rentSettlement',
  masterGoods: 'master.goods',
  masterWarehouse: 'master.warehouse',
  masterProject: 'master.project',
} as const;

export type LedgerRole = (typeof LEDGER_ROLES)[keyof typeof LEDGER_ROLES];

/**
 * The ledger's document types. Called when the server starts, so that a schema set lacking one of
 * them (or giving a role to two types) refuses to start with the role named. Turnover materials are
 * optional: without a turnover stocktake the movements alone may be absent.
 */
export function ledgerEntities(catalog: EntityCatalog) {
  const turnoverCount = optionalEntityWithRole(catalog, LEDGER_ROLES.turnoverCount);
  return {
    receipt: entityWithRole(catalog, LEDGER_ROLES.receipt),
    count: entityWithRole(catalog, LEDGER_ROLES.count),
    report: entityWithRole(catalog, LEDGER_ROLES.report),
    turnoverMovement: turnoverCount
      ? entityWithRole(catalog, LEDGER_ROLES.turnoverMovement)
      : optionalEntityWithRole(catalog, LEDGER_ROLES.turnoverMovement),
    turnoverCount,
    masterGoods: entityWithRole(catalog, LEDGER_ROLES.masterGoods),
    masterWarehouse: entityWithRole(catalog, LEDGER_ROLES.masterWarehouse),
    masterProject: entityWithRole(catalog, LEDGER_ROLES.masterProject),
  };
}
