// The compiled, frozen shape of a document type. Everything the server and the client derive
// (tables, validators, routes, columns, search fields) is a projection of these objects.
import type { Expr } from '../compute/expr.ts';
import type { Predicate } from '../predicate/predicate.ts';

export type Lang = 'zh' | 'en';

/** A text in both languages: Chinese is the schema's own title, English comes from x-i18n. */
export interface Label {
  zh: string;
  en: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a schema document is read keyword by keyword all over the engine, server and client (163 type errors with unknown); the dialect meta-schema, not this type, guarantees its shape
export type JsonSchema = Record<string, any>;

/** How a value is typed end to end (JSON, SQL, parsing of filters). */
export type FieldKind = 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'month' | 'id' | 'json';

export interface DictBinding {
  code: string;
  source: 'system' | 'biz';
  multiple: boolean;
}

export interface RefBinding {
  entity: string;
  valueField: string;
  labelField?: string;
  filter?: Predicate;
  dependsOn: readonly string[];
  /** Set when the value is a comma-joined list of references. */
  separator?: ',';
  /** target field of this row -> field of the referenced record, copied on save */
  copy: Readonly<Record<string, string>>;
  /** target field of this record -> the term of the referenced record it inherits (x-ref.inherit) */
  inherit: Readonly<Record<string, InheritedTerm>>;
}

export interface InheritedTerm {
  /** The referenced record's field. */
  from: string;
  /** The record may hold another value: the term is only filled in when empty. */
  overridable: boolean;
}

export interface ComputeBinding {
  expr: Expr;
  scale?: number;
  mode: 'always' | 'default';
}

export interface RuleBinding {
  visibleIf?: Predicate;
  requiredIf?: Predicate;
  readonlyIf?: Predicate;
  clearWhenHidden: boolean;
  /** Fields of the same record (or row) this value may not be below: an end date's start date. */
  atLeast?: readonly string[];
}

export interface OptionModel {
  value: string | number | boolean;
  label: Label;
}

/** A multi-valued reference kept in a link table: one row per reference, in the order sent. */
export interface LinkBinding {
  table: string;
  /** The link table's column holding the owning record's id (its reference column is the field's column). */
  ownerColumn: string;
  /** At most this many references per record. */
  maxItems: number;
}

export interface FieldModel {
  name: string;
  column: string;
  label: Label;
  kind: FieldKind;
  sqlType: string;
  scale?: number;
  maxLength?: number;
  required: boolean;
  readOnly: boolean;
  /** Filled by the server (id, tenant, audit columns, foreign key, order). */
  system: boolean;
  /** Input only (JSON Schema writeOnly): validated and handed to server modules, never stored as a column or returned. */
  writeOnly: boolean;
  default?: unknown;
  unique: boolean;
  /** x-db.uniqueWithin: unique among the live records sharing these fields (and, with `when`, satisfying it). */
  uniqueWithin?: UniqueWithin;
  index: boolean;
  dict?: DictBinding;
  ref?: RefBinding;
  /** x-db.link: the comma-joined references live in a link table, not in a column of the record's table. */
  link?: LinkBinding;
  compute?: ComputeBinding;
  rules?: RuleBinding;
  options?: readonly OptionModel[];
  ui?: Readonly<Record<string, unknown>>;
  display?: Readonly<Record<string, unknown>>;
  /** The property's schema with $ref resolved (used by renderers and OpenAPI). */
  schema: JsonSchema;
}

/** A field unique among the live records that share the values of `fields` (x-db.uniqueWithin, uniqueWhen). */
export interface UniqueWithin {
  fields: readonly string[];
  when?: Predicate;
}

/** x-detail.pickFrom: rows taken from the lines of another document. */
export interface PickSource {
  /** The header field (an x-ref) selecting the source document. */
  header: string;
  /** The entity the header field refers to, and its detail array offered for picking. */
  entity: string;
  detail: string;
  /** Row field receiving the picked source row's id. */
  rowId: string;
  /** row field -> source row field, copied on picking */
  map: Readonly<Record<string, string>>;
  /** Set when a line may be picked once per document ([]) or once per value of these row fields. */
  unique?: readonly string[];
}

export interface DetailModel {
  name: string;
  label: Label;
  table: string;
  foreignKey: string;
  foreignKeyColumn: string;
  orderField: string;
  editor: 'grid' | 'form';
  minRows: number;
  maxRows: number;
  /** Where rows may be picked from: lines of the document a header reference selects. */
  pickFrom: readonly PickSource[];
  /** The parts a row's fields play in the cost rules (x-detail.fieldRoles): field role -> row field. */
  fieldRoles: Readonly<Record<string, string>>;
  /** All fields of a row, system ones included. */
  fields: readonly FieldModel[];
  /** The fields stored as columns of the child table (all but writeOnly ones). */
  columns: readonly FieldModel[];
  fieldMap: Readonly<Record<string, FieldModel>>;
  /** Computed fields of a row, in evaluation order. */
  computeOrder: readonly string[];
  /** Header fields the rows' formulas read (`{header}`): a change to one recomputes the rows. */
  headerReads: readonly string[];
  /** Whether a row's formula sums over its sibling rows (`sumBy`): a change to one row recomputes all. */
  sumsSiblings: boolean;
}

export interface TreeModel {
  parentField: string;
  keyField: string;
  root: string;
  lazyParam: string;
  /** What `list` answers: a page, or the forest of the records found (x-entity.tree.list). */
  list: 'page' | 'forest';
}

export interface CodeModel {
  field: string;
  prefix: string;
  period: 'yyyyMM' | 'yyyy' | 'none';
  digits: number;
}

export interface SortModel {
  field: string;
  order: 'asc' | 'desc';
}

export interface SearchFieldModel {
  field: string;
  operator: string;
  widget?: string;
}

export interface LayoutSection {
  title: Label;
  fields: readonly string[];
  modes?: readonly string[];
}

/** A button that fills the form from GET <api>/<route> (x-layout.fill). */
export interface FillAction {
  route: string;
  title: Label;
  /** query parameter → the header field whose value it sends (when filled) */
  params: Readonly<Record<string, string>>;
  /** header fields without which the button stays disabled */
  required: readonly string[];
  /** the answer is this detail's rows; without it, a record */
  detail?: string;
}

export type EntityScope = 'tenant' | 'shared' | 'platform';

/** The rules every document type offers out of the box (x-entity.dataScopes); see model/data-scopes.ts. */
export type DataScopeKind = 'all' | 'ownDept' | 'deptTree' | 'own' | 'ownProject';

/** A data-scope rule derived from the schema: its kind, the platform's rule type and the field it compares. */
export interface DerivedScopeModel {
  kind: DataScopeKind;
  /** data_scope_type: 1 all, 2 own, 3 own department, 4 department and below, 6 own projects */
  scopeType: string;
  /** the header field compared (createUser, createDept, the project reference); none for all */
  field?: string;
  label: Label;
}

/** The entity's place in the menu, and the button permission codes derived from it. */
export interface MenuModel {
  parent: string;
  code: string;
  path: string;
  /** Routes the list page had before (x-entity.menu.formerPaths): moved to `path` on start, and opened as `path`. */
  formerPaths: readonly string[];
  sort: number;
  buttons: readonly { code: string; name: string; en: string }[];
  /** The group `parent` names, when the document type declares it (x-entity.menu.group): created on start when absent. */
  group?: MenuGroupModel;
  /** Role alias → the button codes its role is granted with the menu entry (x-entity.menu.grants, actions expanded). */
  grants: Readonly<Record<string, readonly string[]>>;
}

/** A top-level menu group a document type declares. */
export interface MenuGroupModel {
  code: string;
  name: string;
  en: string;
  icon: string;
  sort: number;
}

/** A generic call an x-entity.routes alias answers like; `all` is reachable only through an alias. */
export type RouteAction =
  | 'all'
  | 'list'
  | 'detail'
  | 'options'
  | 'save'
  | 'update'
  | 'submit'
  | 'updatePart'
  | 'remove'
  | 'export'
  | 'tree'
  | 'lazy-list'
  | 'lazy-tree';

/** The document's approval workflow (x-workflow). */
export interface WorkflowModel {
  /** Route prefix under /work/process/ and the flow category flow_<prefix>. */
  prefix: string;
  /** The BPMN process id started on submit. */
  processKey: string;
  /** The readOnly property holding draft / approving / approved / rejected / withdrawn / terminated. */
  statusField: string;
  /** The readOnly property receiving the process instance id. */
  instanceField?: string;
  /** process variable → header field, besides every scalar header field under its own name */
  variables: Readonly<Record<string, string>>;
  /** task definition key → the header fields its handler may change */
  editable: Readonly<Record<string, readonly string[]>>;
  /** readOnly header field → the value it takes when the document is approved (a status the workflow owns) */
  onApproved: Readonly<Record<string, string>>;
}

/** x-entity.rowsOf: the entity and detail array the records are rows of. */
export interface RowsOfModel {
  entity: string;
  detail: string;
  /** property of these records -> header field of the document, read through the join */
  parentFields: Readonly<Record<string, string>>;
}

export interface EntityModel {
  key: string;
  file: string;
  label: Label;
  table: string;
  api: string;
  scope: EntityScope;
  softDelete: boolean;
  titleField?: string;
  /** What a picker option shows: these fields joined by spaces (default: titleField). */
  optionFields: readonly string[];
  icon?: string;
  lookupKeys: readonly string[];
  /** Labels by id (options?ids=) are readable by every member of the tenant (who created a record). */
  labelsForMembers: boolean;
  /** Written by the server alone (x-entity.readOnly, logs): no write routes, buttons or list actions. */
  readOnly: boolean;
  /**
   * Set when the records are the rows of another entity's detail (x-entity.rowsOf): read through a
   * join with their live document, never written, without a table of their own.
   */
  rowsOf?: RowsOfModel;
  /**
   * Set on the rows entity the engine derives for a document's detail (model/detail-rows.ts): it has
   * no schema file, menu or page of its own; its `file` is its document's.
   */
  derived?: boolean;
  /** The parts the document plays in the built-in cost rules (x-entity.roles): see model/roles.ts. */
  roles: readonly string[];
  /** The parts its header fields play in those rules (x-entity.fieldRoles): field role -> field. */
  fieldRoles: Readonly<Record<string, string>>;
  /** Which records are live (x-entity.activeIf): offered by pickers and `all`, newly referable. */
  activeIf?: Predicate;
  /** Which records are never removed (x-entity.permanentIf): the platform tenant. */
  permanentIf?: Predicate;
  /** Which records nobody changes or removes through the API (x-entity.fixedIf): rules derived from the schemas. */
  fixedIf?: Predicate;
  /**
   * With scope shared: a tenant may keep rows of its own beside the platform's (x-entity.tenantRows).
   * The platform tenant's rows are read by all; a tenant's own are read and written by it alone.
   */
  tenantRows: boolean;
  /** The data-scope rules derived for this document type (x-entity.dataScopes), in a fixed order. */
  dataScopes: readonly DerivedScopeModel[];
  /** Extra paths under the API base (x-entity.routes): path -> the generic call it answers like. */
  routes: Readonly<Record<string, RouteAction>>;
  tree?: TreeModel;
  code?: CodeModel;
  menu?: MenuModel;
  /** Header fields, system ones included, in declaration order. */
  fields: readonly FieldModel[];
  /** The fields stored as columns of the header table (all but writeOnly ones). */
  columns: readonly FieldModel[];
  fieldMap: Readonly<Record<string, FieldModel>>;
  details: readonly DetailModel[];
  computeOrder: readonly string[];
  /** The computed header fields that read no detail row, even through another one: what a row may read. */
  computeBeforeRows: readonly string[];
  list: {
    columns: readonly { field: string; width?: number; sortable?: boolean; fixed?: string }[];
    defaultSort: readonly SortModel[];
    pageSize: number;
    pageSizes: readonly number[];
    rowActions: readonly string[];
    batchActions: readonly string[];
    export: boolean;
  };
  search: readonly SearchFieldModel[];
  layout: {
    container: 'dialog' | 'page';
    width?: number;
    columns: number;
    sections: readonly LayoutSection[];
    fill: readonly FillAction[];
  };
  /** Set when the document passes through an approval workflow. */
  workflow?: WorkflowModel;
  /** What the installed packs compiled of their keywords (engine/packs.ts), by keyword. */
  extensions: Readonly<Record<string, unknown>>;
  /** The document's schema with $id set, for validators. */
  schema: JsonSchema;
}

export interface DictionaryItem {
  key: string;
  value: string;
  en: string;
}

export interface DictionaryDef {
  code: string;
  name: string;
  en: string;
  source: 'system' | 'biz';
  items: readonly DictionaryItem[];
}

/** Everything compiled from the manifest: the unit the server and client load. */
export interface EntityCatalog {
  entities: Readonly<Record<string, EntityModel>>;
  dictionaries: readonly DictionaryDef[];
  /** All schema documents by $id, for Ajv. */
  documents: Readonly<Record<string, JsonSchema>>;
}
