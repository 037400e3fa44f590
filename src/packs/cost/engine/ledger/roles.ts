// The roles documents play in the material ledger (x-entity.roles, docs/business-rules.md#material-ledger): the
// ledger's rules, routes and OpenAPI paths know document types only by these, so that a schema set
// binds its own documents to the ledger; and the fields they read and write, by field role
// (x-entity.fieldRoles, x-detail.fieldRoles: the table of field-roles.ts), so that it binds their fields too.
import { entityWithRole, fieldsWithRoles, optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import type { DetailModel, EntityCatalog, EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import { FIELD_ROLE_NEEDS, GOODS_ROLE, goodsLines } from '../field-roles.ts';

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
  masterGoods: GOODS_ROLE,
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

/** A document the ledger reads or writes: its fields by field role, of its header and of its lines. */
export interface LedgerDocument<H extends string = string, L extends string = string> {
  model: EntityModel;
  header: Readonly<Record<H, FieldModel>>;
  /** the detail whose rows hold the goods */
  lines: DetailModel;
  line: Readonly<Record<L, FieldModel>>;
  /** the document's number (x-entity.code), kept on its journal rows */
  code?: FieldModel;
  /** its approval status (x-workflow); a document type without a workflow has all its documents count as approved */
  status?: FieldModel;
}

type Needs = typeof FIELD_ROLE_NEEDS;
/** The field roles of one part of a need, as a union (alternatives left out: none of the ledger's has any). */
type Named<Part> = Part extends readonly (infer N)[] ? Extract<N, string> : never;
type HeaderRoles<R extends keyof Needs> = Named<Needs[R] extends { header: infer P } ? P : never>;
type LineRoles<R extends keyof Needs> = Named<Needs[R] extends { lines: infer P } ? P : never>;
/** The ledger's documents (the others are master data). */
type DocumentRole = Exclude<LedgerRole, `master.${string}`>;

/** Binds a document's header and line fields by the field roles its role needs (FIELD_ROLE_NEEDS); refuses naming the missing one. */
function ledgerDocument<R extends DocumentRole>(
  entities: Readonly<Record<string, EntityModel>>,
  model: EntityModel,
  role: R,
): LedgerDocument<HeaderRoles<R>, LineRoles<R>> {
  const needs: { header?: readonly string[]; lines: readonly string[] } = FIELD_ROLE_NEEDS[role];
  const lines = goodsLines(entities, model);
  if (!lines) throw new Error(`${model.key} plays "${role}" but no detail of it has rows referring to "${GOODS_ROLE}"`);
  return {
    model,
    header: fieldsWithRoles(entities, model, role, needs.header ?? []),
    lines,
    line: fieldsWithRoles(entities, model, role, needs.lines, lines),
    code: model.code && model.fieldMap[model.code.field],
    status: model.workflow && model.fieldMap[model.workflow.statusField],
  };
}

/** What the refusals name a goods or a warehouse by, and the project a warehouse is of. */
function masterFields<R extends typeof GOODS_ROLE | typeof LEDGER_ROLES.masterWarehouse>(
  entities: Readonly<Record<string, EntityModel>>,
  model: EntityModel,
  role: R,
): { model: EntityModel } & Record<HeaderRoles<R>, FieldModel> {
  const needs: readonly string[] = FIELD_ROLE_NEEDS[role].header;
  return { model, ...fieldsWithRoles(entities, model, role, needs) } as { model: EntityModel } & Record<HeaderRoles<R>, FieldModel>;
}

/**
 * The ledger's documents and master data with the fields it reads and writes, bound by role. Called
 * where the ledger starts (its hooks, routes and OpenAPI paths), so that a schema set whose document
 * lacks a field the ledger needs (x-entity.fieldRoles, x-detail.fieldRoles) refuses to start naming
 * the document, its role and the field role.
 */
export function ledgerFields(catalog: EntityCatalog) {
  const { entities } = catalog;
  const models = ledgerEntities(catalog);
  const rentSettlement = optionalEntityWithRole(catalog, LEDGER_ROLES.rentSettlement);
  return {
    receipt: ledgerDocument(entities, models.receipt, LEDGER_ROLES.receipt),
    count: ledgerDocument(entities, models.count, LEDGER_ROLES.count),
    report: ledgerDocument(entities, models.report, LEDGER_ROLES.report),
    turnoverMovement: models.turnoverMovement && ledgerDocument(entities, models.turnoverMovement, LEDGER_ROLES.turnoverMovement),
    turnoverCount: models.turnoverCount && ledgerDocument(entities, models.turnoverCount, LEDGER_ROLES.turnoverCount),
    rentSettlement: rentSettlement && ledgerDocument(entities, rentSettlement, LEDGER_ROLES.rentSettlement),
    masterGoods: masterFields(entities, models.masterGoods, GOODS_ROLE),
    masterWarehouse: masterFields(entities, models.masterWarehouse, LEDGER_ROLES.masterWarehouse),
    masterProject: models.masterProject,
  };
}

export type LedgerFields = ReturnType<typeof ledgerFields>;
