// Reports (/api/blade-report/report/rest): saved definitions are the `report` entity (list, detail,
// submit, remove are the generic routes); this module checks a definition before it is stored and
// runs one. A run reads the report's entity through the caller's own store for it, so grants, data
// scopes and the tenant apply as in that entity's list; every name in the definition was checked
// against the schema model (engine/report/definition.ts) and every value is bound as a parameter.
//   GET  run?id=&current=&size=      the rows (labels for dictionaries and references), groups, totals
//   POST preview?current=&size=      the same for an unsaved definition {entityKey, definition}
//   GET  export?id=                  the run as .xlsx: rows, a subtotal row per group, the grand total
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import type { EntityCatalog, EntityModel, FieldModel, Lang } from '../../../engine/model/types.ts';
import { parseListParams } from '../../../engine/query/list-params.ts';
import { checkReportDefinition, type ReportDefinition } from '../../../engine/report/definition.ts';
import type { Row } from '../../db/db.ts';
import { displayValue, resolveLabels } from '../../db/labels.ts';
import { parseId, type EntityHooks, type EntityStore } from '../../db/store.ts';
import { badRequest, ValidationFailed } from '../../errors.ts';
import { envelope } from '../../http/envelope.ts';
import { storeFor, type RouteContext } from '../../http/entity-routes.ts';
import { EXPORT_LIMIT, newWorkbook, sendWorkbook, sheetName } from '../../http/export.ts';
import { AppError } from '../../errors.ts';
import type { AccessControl } from '../../security/access.ts';

export const REPORT_ENTITY = 'report';
/** At most this many groups are summed in one run (the rows are paged; the groups are not). */
const MAX_GROUPS = 1000;

type Query = Record<string, string | undefined>;

/** The definition is checked against the entity's model, and the author must be able to read that entity. */
export function reportHooks(catalog: EntityCatalog, access: AccessControl): Record<string, EntityHooks> {
  return {
    [REPORT_ENTITY]: {
      async beforeWrite({ actor, record }) {
        const errors = checkReportDefinition(catalog, record.entityKey, record.definition, actor.lang);
        if (errors.length) throw new ValidationFailed(errors);
        await access.check(actor, catalog.entities[record.entityKey as string], 'view');
      },
    },
  };
}

export interface ReportRun {
  entityKey: string;
  columns: { field: string; label: string; numeric: boolean }[];
  groupBy: string[];
  sums: string[];
  /** Rows of this page, values shown as labels; ordered by the grouping fields. */
  records: Row[];
  /** Each group's values (as labels), its row count and sums; all of them, up to 1,000. */
  groups: Row[];
  totals: Row;
  total: number;
  current: number;
  size: number;
  pages: number;
}

interface Run {
  store: EntityStore;
  definition: Required<ReportDefinition>;
}

function checked(ctx: RouteContext, entityKey: unknown, definition: unknown, lang: Lang): Required<ReportDefinition> {
  const errors = checkReportDefinition(ctx.catalog, entityKey, definition, lang);
  if (errors.length) throw new ValidationFailed(errors);
  const def = definition as ReportDefinition;
  return { columns: def.columns, filter: def.filter ?? {}, groupBy: def.groupBy ?? [], sums: def.sums ?? [] };
}

async function prepare(ctx: RouteContext, request: FastifyRequest, entityKey: unknown, definition: unknown): Promise<Run> {
  const def = checked(ctx, entityKey, definition, request.lang);
  return { store: await storeFor(ctx, ctx.catalog.entities[entityKey as string], request, 'view'), definition: def };
}

/** A saved report, read under the report grants, prepared to run under the grants on its entity. */
async function savedRun(ctx: RouteContext, request: FastifyRequest, id: string | undefined): Promise<Run & { name: string }> {
  const reports = await storeFor(ctx, ctx.catalog.entities[REPORT_ENTITY], request, 'view');
  const report = await reports.detail(parseId(id));
  return { ...(await prepare(ctx, request, report.entityKey, report.definition)), name: String(report.name) };
}

async function execute(
  ctx: RouteContext,
  { store, definition }: Run,
  lang: Lang,
  paging: { current: number; size: number },
): Promise<ReportRun> {
  const model = store.model;
  const { page, groups, totals } = await store.report({ ...definition, ...paging, maxGroups: MAX_GROUPS });
  const fieldsOf = (names: string[]) => names.map((n) => model.fieldMap[n]);
  const shown = fieldsOf([...new Set([...definition.groupBy, ...definition.columns])]);
  const maps = await resolveLabels(ctx, store.actor, shown, [...page.records, ...groups], lang);
  const labelled = (row: Row, fields: FieldModel[]) => ({
    ...row,
    ...Object.fromEntries(fields.map((f) => [f.name, displayValue(f, row[f.name], maps, lang)])),
  });
  const numeric = new Set(definition.sums);
  return {
    entityKey: model.key,
    columns: fieldsOf(definition.columns).map((f) => ({ field: f.name, label: f.label[lang], numeric: numeric.has(f.name) })),
    groupBy: definition.groupBy,
    sums: definition.sums,
    records: page.records.map((r) => labelled(r, shown)),
    groups: groups.map((g) => labelled(g, fieldsOf(definition.groupBy))),
    totals,
    total: page.total,
    current: page.current,
    size: page.size,
    pages: page.pages,
  };
}

function paging(model: EntityModel, query: Query) {
  const { current, size } = parseListParams(model, { current: query.current, size: query.size });
  return { current, size };
}

async function workbook(ctx: RouteContext, run: Run & { name: string }, lang: Lang) {
  const result = await execute(ctx, run, lang, { current: 1, size: EXPORT_LIMIT });
  if (result.total > EXPORT_LIMIT) throw new AppError(400, 'exportTooLarge', { limit: EXPORT_LIMIT });
  const book = await newWorkbook();
  const sheet = book.addWorksheet(sheetName(run.name));
  const fields = [...result.groupBy.filter((g) => !run.definition.columns.includes(g)), ...run.definition.columns];
  const model = run.store.model;
  sheet.columns = fields.map((f) => ({ header: model.fieldMap[f].label[lang], key: f, width: 18 }));
  sheet.getRow(1).font = { bold: true };
  const summary = (label: string, row: Row) => {
    const line = sheet.addRow({ [fields[0]]: label, ...Object.fromEntries(result.sums.map((s) => [s, row[s]])) });
    line.font = { bold: true };
  };
  const sameGroup = (a: Row, b: Row) => result.groupBy.every((g) => a[g] === b[g]);
  result.records.forEach((row, i) => {
    sheet.addRow(Object.fromEntries(fields.map((f) => [f, row[f]])));
    const next = result.records[i + 1];
    const group = result.groupBy.length && (!next || !sameGroup(row, next)) ? result.groups.find((g) => sameGroup(g, row)) : undefined;
    if (group) summary(`${t('reportSubtotal', lang)} (${group.count})`, group);
  });
  summary(`${t('reportTotal', lang)} (${result.totals.count})`, result.totals);
  return { filename: `${run.name}.xlsx`, book };
}

export function registerReportRoutes(app: FastifyInstance, ctx: RouteContext) {
  const model = ctx.catalog.entities[REPORT_ENTITY];
  if (!model) return;
  const base = model.api;

  app.get(`${base}/run`, async (request) => {
    const query = request.query as Query;
    const run = await savedRun(ctx, request, query.id);
    return envelope(200, await execute(ctx, run, request.lang, paging(run.store.model, query)), t('ok', request.lang));
  });

  app.post(`${base}/preview`, async (request) => {
    const body = request.body as Row | undefined;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('badJson');
    await storeFor(ctx, model, request, 'view');
    const run = await prepare(ctx, request, body.entityKey, body.definition);
    return envelope(200, await execute(ctx, run, request.lang, paging(run.store.model, request.query as Query)), t('ok', request.lang));
  });

  app.get(`${base}/export`, async (request, reply) => {
    await storeFor(ctx, model, request, 'export');
    const run = await savedRun(ctx, request, (request.query as Query).id);
    return sendWorkbook(reply, await workbook(ctx, run, request.lang));
  });
}
