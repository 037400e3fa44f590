// What the early warnings read: the document types by role (x-entity.roles) and their fields by
// field role (x-entity.fieldRoles, x-detail.fieldRoles; a reference by the role of what it refers
// to), bound once per schema set when the module starts. A schema set lacking a role, or a field a
// rule reads, refuses to start naming the document, its role and the field role; a renamed field is
// followed. The field roles each document role must have are listed in packs/cost/engine/field-roles.ts.
import {
  entityWithRole,
  fieldsWithRoles,
  fieldWithRole,
  linesWithRoles,
  optionalEntityWithRole,
  type FieldRoleOwner,
} from '../../../../engine/model/roles.ts';
import type { DetailModel, EntityCatalog, EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import { budgetLines, codeField, type BudgetLines } from '../../engine/field-roles.ts';
import { isSettlement, SETTLEMENT_ROLE } from '../../engine/warnings/auxiliary.ts';

/** The roles the early warnings read; each must be played by exactly one document type. */
export const WARNING_ROLES = {
  projectRecord: 'master.project',
  goods: 'master.goods',
  contract: 'contract.expense',
  totalDemand: 'demand.total',
  monthlyDemand: 'demand.monthly',
  procurement: 'procurement.monthly',
  batch: 'supply.batch',
  tip: 'warning.record',
} as const;

/** The counterparty of a contract (supplier, lessor, subcontractor): documents refer to it by this role. */
export const COUNTERPARTY_ROLE = 'master.counterparty';

/** Roles with rules of their own that a schema set may leave out. */
export const OPTIONAL_WARNING_ROLES = {
  receipt: 'stock.receipt',
  ticket: 'stock.voucher',
  stocktake: 'stock.count',
  monthlyReport: 'stock.monthlyReport',
} as const;

/** Settlements that bill rent: their period may not run past the lease contract. */
export const LEASE_ROLE = 'settlement.lease';

export type WarningDocuments = { [K in keyof typeof WARNING_ROLES]: EntityModel } & {
  [K in keyof typeof OPTIONAL_WARNING_ROLES]?: EntityModel;
};

const resolved = new WeakMap<EntityCatalog, WarningDocuments>();

/**
 * The document types of each role the warnings read. Called when the module starts: a schema set
 * without one of the required roles, or with one played twice, refuses to start naming the role.
 */
export function warningDocuments(catalog: EntityCatalog): WarningDocuments {
  let found = resolved.get(catalog);
  if (!found) {
    const required = Object.entries(WARNING_ROLES).map(([name, role]) => [name, entityWithRole(catalog, role)]);
    const optional = Object.entries(OPTIONAL_WARNING_ROLES).map(([name, role]) => [name, optionalEntityWithRole(catalog, role)]);
    found = Object.fromEntries([...required, ...optional]) as WarningDocuments;
    resolved.set(catalog, found);
  }
  return found;
}

const PROJECT = WARNING_ROLES.projectRecord;
const GOODS = WARNING_ROLES.goods;

/**
 * The field roles the warnings read of each document's header and lines (dotted ones: references),
 * all required (packs/cost/engine/field-roles.ts lists them for the linter); what a rule reads only
 * when present is bound in bindAll.
 */
export const WARNING_READS = {
  totalDemand: { header: [PROJECT], lines: [GOODS, 'quantity', 'changeQuantity', 'effectiveQuantity'] },
  monthlyDemand: { header: [PROJECT], lines: [GOODS, 'quantity', 'nextMonthQuantity', 'price'] },
  procurement: { header: [PROJECT], lines: [GOODS, 'upstreamLine', 'quantity', 'price'] },
  batch: { header: [PROJECT], lines: [GOODS, 'upstreamLine', 'quantity', 'price'] },
  receipt: {
    header: [PROJECT],
    lines: [GOODS, 'quantity', 'deliveredQuantity', 'returnedQuantity', 'upstreamLine', 'contractLine'],
  },
  ticket: { header: [GOODS, 'quantity', 'deliveredQuantity', 'netWeight'] },
  stocktake: { lines: [GOODS, 'bookQuantity', 'countedQuantity', 'price'] },
  monthlyReport: { lines: [GOODS, 'consumedQuantity', 'consumedAmount', 'closingPrice', 'designQuantity', 'lossRate'] },
  contract: {
    header: [
      PROJECT,
      'contractType',
      'parentContract',
      'amount',
      'currentAmount',
      'endDate',
      'settledAmount',
      'payableAmount',
      'remainingAmount',
      'retentionRate',
      'paymentRatio',
    ],
    lines: [GOODS, 'quantity', 'changedQuantity', 'price'],
  },
  goods: { header: ['referencePrice'] },
  settlement: { header: [WARNING_ROLES.contract, PROJECT, 'period', 'amount', 'cumulativeAmount'] },
} as const;

type Reads = typeof WARNING_READS;
type HeaderRole<K extends keyof Reads> = Reads[K] extends { header: readonly (infer R extends string)[] } ? R : never;
type LineRole<K extends keyof Reads> = Reads[K] extends { lines: readonly (infer R extends string)[] } ? R : never;

/** A document's lines as the warnings read them: the detail, its fields by role, and how a line is named in messages. */
export interface BoundLines<R extends string> {
  detail: DetailModel;
  fields: Record<R, FieldModel>;
  labels: readonly FieldModel[];
}

/** A document type with the fields the warnings read of its header. */
export interface BoundHeader<K extends keyof Reads> {
  model: EntityModel;
  header: Record<HeaderRole<K>, FieldModel>;
}

/** ... and of its lines. */
export interface Bound<K extends keyof Reads> extends BoundHeader<K> {
  lines: BoundLines<LineRole<K>>;
}

/** A monthly settlement: the fields its rules read, those a type may lack left undefined. */
export interface SettlementFields {
  header: Record<HeaderRole<'settlement'>, FieldModel>;
  counterpartyRef?: FieldModel;
  periodStart?: FieldModel;
  periodEnd?: FieldModel;
  settlementType?: FieldModel;
  payable?: FieldModel;
  /** the contract's current amount copied on the settlement */
  contractAmount?: FieldModel;
  /** the lines its rules read, when a detail has them: cumulative against contract quantity (R-CAP-1), price (R-PRICE) */
  lines?: SettlementLines;
}

export interface SettlementLines {
  detail: DetailModel;
  /** goods lines have it, work items not */
  goods?: FieldModel;
  caps?: { cumulativeQuantity: FieldModel; contractQuantity: FieldModel };
  price?: FieldModel;
  labels: readonly FieldModel[];
}

export interface WarningFields {
  totalDemand: Bound<'totalDemand'>;
  monthlyDemand: Bound<'monthlyDemand'> & { totalDemandRef?: FieldModel };
  procurement: Bound<'procurement'>;
  batch: Bound<'batch'>;
  receipt?: Bound<'receipt'>;
  ticket?: BoundHeader<'ticket'> & { labels: readonly FieldModel[] };
  stocktake?: Bound<'stocktake'>;
  monthlyReport?: Bound<'monthlyReport'>;
  contract: Bound<'contract'> & { code: FieldModel };
  goods: BoundHeader<'goods'>;
  budgets?: BudgetLines;
  /** by settlement type's key */
  settlements: ReadonlyMap<string, SettlementFields>;
}

type Entities = Readonly<Record<string, EntityModel>>;

/** A field of a header or of rows by role, or undefined (what a rule reads when present). */
const optional = (entities: Entities, owner: FieldRoleOwner, role: string) => fieldWithRole(entities, owner, role);

/**
 * How a line (or a one-goods document) is named in messages: the goods' name its goods reference
 * copies (x-ref copy of the goods' label), else a work item's name (field role itemName), else the
 * goods' code it copies, else the item's code (itemCode).
 */
export function labelFields(entities: Entities, owner: FieldRoleOwner): FieldModel[] {
  const goods = optional(entities, owner, GOODS)?.ref;
  const goodsModel = goods && entities[goods.entity];
  const copyOf = (source: string | undefined) =>
    goods && source ? Object.entries(goods.copy).find(([, from]) => from === source)?.[0] : undefined;
  const names = [
    copyOf(goods?.labelField),
    owner.fieldRoles.itemName,
    copyOf(goodsModel ? (goodsModel.code?.field ?? 'code') : undefined),
    owner.fieldRoles.itemCode,
  ];
  return names.filter((n): n is string => !!n && !!owner.fieldMap[n]).map((n) => owner.fieldMap[n]);
}

function bindHeader<K extends keyof Reads>(entities: Entities, model: EntityModel, role: string, key: K): BoundHeader<K> {
  const reads = WARNING_READS[key] as { header?: readonly string[] };
  return { model, header: fieldsWithRoles(entities, model, role, reads.header ?? []) as BoundHeader<K>['header'] };
}

function bind<K extends keyof Reads>(entities: Entities, model: EntityModel, role: string, key: K): Bound<K> {
  const reads = WARNING_READS[key] as { lines?: readonly string[] };
  const { detail, fields } = linesWithRoles(entities, model, role, reads.lines ?? []);
  const lines = { detail, fields: fields as Bound<K>['lines']['fields'], labels: labelFields(entities, detail) };
  return { ...bindHeader(entities, model, role, key), lines };
}

/** A settlement's detail whose rows its rules read: the one with contract quantities or prices. */
function settlementLines(entities: Entities, model: EntityModel): SettlementLines | undefined {
  for (const detail of model.details) {
    const row = (role: string) => optional(entities, detail, role);
    const [cumulativeQuantity, contractQuantity, price] = [row('cumulativeQuantity'), row('contractQuantity'), row('price')];
    const caps = cumulativeQuantity && contractQuantity ? { cumulativeQuantity, contractQuantity } : undefined;
    if (caps || price) return { detail, goods: row(GOODS), caps, price, labels: labelFields(entities, detail) };
  }
  return undefined;
}

function settlementFields(entities: Entities, model: EntityModel): SettlementFields {
  const field = (role: string) => optional(entities, model, role);
  return {
    header: fieldsWithRoles(entities, model, SETTLEMENT_ROLE, WARNING_READS.settlement.header),
    counterpartyRef: field(COUNTERPARTY_ROLE),
    periodStart: field('periodStart'),
    periodEnd: field('periodEnd'),
    settlementType: field('settlementType'),
    payable: field('payable'),
    contractAmount: field('contractAmount'),
    lines: settlementLines(entities, model),
  };
}

function bindAll(catalog: EntityCatalog): WarningFields {
  const { entities } = catalog;
  const documents = warningDocuments(catalog);
  const optionalBound = <K extends 'receipt' | 'stocktake' | 'monthlyReport'>(key: K) => {
    const model = documents[key];
    return model && bind(entities, model, OPTIONAL_WARNING_ROLES[key], key);
  };
  const contract = documents.contract;
  const code = codeField(contract, WARNING_ROLES.contract);
  const ticket = documents.ticket && bindHeader(entities, documents.ticket, OPTIONAL_WARNING_ROLES.ticket, 'ticket');
  const monthlyDemand = bind(entities, documents.monthlyDemand, WARNING_ROLES.monthlyDemand, 'monthlyDemand');
  return {
    totalDemand: bind(entities, documents.totalDemand, WARNING_ROLES.totalDemand, 'totalDemand'),
    monthlyDemand: { ...monthlyDemand, totalDemandRef: optional(entities, monthlyDemand.model, WARNING_ROLES.totalDemand) },
    procurement: bind(entities, documents.procurement, WARNING_ROLES.procurement, 'procurement'),
    batch: bind(entities, documents.batch, WARNING_ROLES.batch, 'batch'),
    receipt: optionalBound('receipt'),
    ticket: ticket && { ...ticket, labels: labelFields(entities, ticket.model) },
    stocktake: optionalBound('stocktake'),
    monthlyReport: optionalBound('monthlyReport'),
    contract: { ...bind(entities, contract, WARNING_ROLES.contract, 'contract'), code },
    goods: bindHeader(entities, documents.goods, GOODS, 'goods'),
    budgets: budgetLines(entities, documents.projectRecord),
    settlements: new Map(
      Object.values(entities)
        .filter(isSettlement)
        .map((m) => [m.key, settlementFields(entities, m)]),
    ),
  };
}

const bound = new WeakMap<EntityCatalog, WarningFields>();

/** The fields the warnings read, bound once per schema set (the module calls it when it starts). */
export function warningFields(catalog: EntityCatalog): WarningFields {
  let found = bound.get(catalog);
  if (!found) {
    found = bindAll(catalog);
    bound.set(catalog, found);
  }
  return found;
}

/** A document type's project reference, if it has one: the warnings run on documents of a project. */
export const projectRefOf = (catalog: EntityCatalog, model: EntityModel) => fieldWithRole(catalog.entities, model, PROJECT);
