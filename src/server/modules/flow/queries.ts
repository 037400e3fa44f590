// The read side of workflows in the platform's shapes: task lists (BladeFlow rows: claim, todo,
// done), instance lists (send, follow), an instance's timeline (history-flow-list) and diagram data
// (model-view). Every list is one indexed query per page plus its count.
import type { EntityCatalog, Lang } from '../../../engine/model/types.ts';
import type { Queryable, Row } from '../../db/db.ts';
import { Params } from '../../db/sql.ts';
import { parseId, type Actor, type Page } from '../../db/store.ts';
import { badRequest } from '../../errors.ts';
import { categoryName } from './definitions.ts';
import type { Directory } from './directory.ts';
import { prefixOfCategory } from './prefixes.ts';
import { queryPrepared } from './prepared.ts';

type Query = Record<string, string | undefined>;

export interface Paging {
  current: number;
  size: number;
}

export function paging(query: Query): Paging {
  const current = query.current === undefined || query.current === '' ? 1 : Number(query.current);
  const size = query.size === undefined || query.size === '' ? 10 : Number(query.size);
  if (!Number.isInteger(current) || current < 1) throw badRequest('badPaging', { param: 'current', value: query.current });
  if (!Number.isInteger(size) || size < 1 || size > 500) throw badRequest('badPaging', { param: 'size', value: query.size });
  return { current, size };
}

const time = (column: string) => `to_char(${column}, 'YYYY-MM-DD HH24:MI:SS')`;

/** A duration in the caller's language: 2天3小时 / 2 d 3 h. */
export function durationText(seconds: number | null, lang: Lang): string {
  if (seconds === null || seconds === undefined || seconds < 0) return '';
  const units = lang === 'zh' ? ['天', '小时', '分钟', '秒'] : [' d', ' h', ' min', ' s'];
  const parts = [
    Math.floor(seconds / 86400),
    Math.floor((seconds % 86400) / 3600),
    Math.floor((seconds % 3600) / 60),
    Math.floor(seconds % 60),
  ];
  const text = parts.map((n, i) => (n ? `${n}${units[i]}` : '')).filter(Boolean);
  return text.length ? text.slice(0, 2).join(lang === 'zh' ? '' : ' ') : `0${units[3]}`;
}

/** The filters the work lists accept: category, process key, and a createTime range (beginDate, endDate). */
function listFilters(query: Query, params: Params, timeColumn: string): string[] {
  const where: string[] = [];
  if (query.category) where.push(`d.category = ${params.add(query.category)}`);
  if (query.processDefinitionKey) where.push(`d.def_key = ${params.add(query.processDefinitionKey)}`);
  if (query.processDefinitionName)
    where.push(`d.name LIKE ${params.add(`%${query.processDefinitionName.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  for (const [param, op] of [
    ['beginDate', '>='],
    ['endDate', '<='],
  ] as const) {
    const v = query[param];
    if (!v) continue;
    if (!/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/.test(v)) throw badRequest('badFilterValue', { field: param, value: v });
    where.push(`${timeColumn} ${op} ${params.add(v.length === 10 && op === '<=' ? `${v} 23:59:59` : v)}::timestamp`);
  }
  return where;
}

/** User names in SQL: none (filled in afterwards). */
const UNNAMED = { nameOf: () => 'NULL::text', nameJoin: () => '' };
type UserSql = Pick<Directory, 'nameOf' | 'nameJoin'>;

/** Where the users are for a tenant whose workflow tables are on a database of its own. */
export interface ApartUsers {
  isBound(tenantId: string): Promise<boolean>;
  main: Queryable;
}

const TASK_PEOPLE: [string, string][] = [
  ['assignee', 'assigneeName'],
  ['startUser', 'startUserName'],
];
const INSTANCE_PEOPLE: [string, string][] = [['startUserId', 'startUser']];

export class FlowQueries {
  constructor(
    private readonly db: (tenantId: string) => Queryable,
    private readonly catalog: EntityCatalog,
    private readonly directory: Directory,
    private readonly apart?: ApartUsers,
  ) {}

  /**
   * How a statement names users: joined where the tenant's workflow tables are on the main
   * database with the users, else filled in afterwards from the main database (`fill`: pairs of
   * the id column and the name column).
   */
  private async people(tenantId: string): Promise<{ sql: UserSql; fill: (rows: Row[], pairs: [string, string][]) => Promise<Row[]> }> {
    const main = (await this.apart?.isBound(tenantId)) ? this.apart!.main : undefined;
    if (!main) return { sql: this.directory, fill: async (rows) => rows };
    return {
      sql: UNNAMED,
      fill: async (rows, pairs) => {
        const ids = [
          ...new Set(
            rows.flatMap((r) =>
              pairs
                .map(([id]) => r[id])
                .filter((v) => v !== null && v !== undefined && v !== '')
                .map(String),
            ),
          ),
        ];
        const names = await this.directory.names(main, tenantId, ids);
        for (const r of rows) for (const [id, name] of pairs) if (r[id]) r[name] = names.get(String(r[id])) ?? null;
        return rows;
      },
    };
  }

  private page(rows: Row[], total: number, p: Paging): Page {
    return { records: rows, total, size: p.size, current: p.current, pages: Math.ceil(total / p.size) };
  }

  /** BladeFlow from a task row joined with its instance and definition. */
  private flowRow(r: Row, lang: Lang): Row {
    return {
      taskId: r.taskId,
      taskName: r.taskName,
      taskDefinitionKey: r.taskDefinitionKey,
      assignee: r.assignee ?? '',
      assigneeName: r.assigneeName ?? '',
      category: r.category ?? '',
      categoryName: categoryName(r.category, this.catalog, lang),
      route: prefixOfCategory(r.category) ?? '',
      createTime: r.createTime ?? '',
      claimTime: r.claimTime ?? '',
      endTime: r.endTime ?? '',
      historyTaskEndTime: r.endTime ?? '',
      executionId: r.ref ?? '',
      processInstanceId: r.processInstanceId,
      processDefinitionId: r.processDefinitionId,
      processDefinitionKey: r.processDefinitionKey,
      processDefinitionName: r.processDefinitionName,
      processDefinitionVersion: r.processDefinitionVersion,
      processDefinitionDesc: r.processDefinitionDesc ?? '',
      processDefinitionResName: r.resourceName,
      processDefinitionDiagramResName: r.resourceName,
      historyProcessInstanceId: r.processInstanceId,
      processIsFinished: r.instanceStatus === 'running' ? 'unfinished' : 'finished',
      businessKey: r.businessKey ?? '',
      businessTable: r.businessTable ?? '',
      businessId: r.businessId ?? '',
      businessTitle: r.businessTitle ?? '',
      startUser: r.startUser ?? '',
      startUserName: r.startUserName ?? '',
      status: r.taskStatus ?? r.instanceStatus,
      processStatus: r.instanceStatus,
      comment: r.comment ?? '',
      isPass: r.outcome === 'approve',
      flag: r.outcome === 'approve' ? 'ok' : '',
      variables: r.variables ?? {},
    };
  }

  /** The BladeFlow columns of tasks; `head` is what the task rows come from (a page of ids, or the table). */
  private taskSelect(u: UserSql, head = 'wf_task t', extra = ''): string {
    return `SELECT ${extra}t.id::text AS "taskId", t.name AS "taskName", t.activity_id AS "taskDefinitionKey", t.ref, t.assignee_id::text AS assignee,
        ${u.nameOf('ua')} AS "assigneeName", ${time('t.create_time')} AS "createTime", ${time('t.claim_time')} AS "claimTime", ${time('t.end_time')} AS "endTime",
        t.status AS "taskStatus", t.outcome, t.comment, t.variables,
        i.id::text AS "processInstanceId", i.status AS "instanceStatus", i.business_key AS "businessKey", i.business_table AS "businessTable",
        i.business_id::text AS "businessId", i.business_title AS "businessTitle", i.initiator_id::text AS "startUser", ${u.nameOf('us')} AS "startUserName",
        d.id AS "processDefinitionId", d.def_key AS "processDefinitionKey", d.name AS "processDefinitionName", d.version AS "processDefinitionVersion",
        d.description AS "processDefinitionDesc", d.resource_name AS "resourceName", d.category
      FROM ${head} JOIN wf_instance i ON i.id = t.instance_id JOIN wf_definition d ON d.id = t.definition_id
      ${u.nameJoin('ua', 't.assignee_id')} ${u.nameJoin('us', 'i.initiator_id')}`;
  }

  /**
   * A page of tasks in one statement: the page's ids and the total from the list's index, then
   * the rows joined to their instance, definition and people (a page past the end counts apart).
   */
  private async taskPage(
    tenantId: string,
    where: string[],
    params: Params,
    order: string,
    p: Paging,
    lang: Lang,
    filterJoin = false,
  ): Promise<Page> {
    const whereSql = where.join(' AND ');
    const from = filterJoin ? 'wf_task t JOIN wf_definition d ON d.id = t.definition_id' : 'wf_task t';
    const limit = params.add(p.size);
    const offset = params.add((p.current - 1) * p.size);
    const people = await this.people(tenantId);
    const rows = await people.fill(
      await queryPrepared(
        this.db(tenantId),
        `WITH page AS (SELECT t.id, count(*) OVER () AS total FROM ${from} WHERE ${whereSql} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset})
       ${this.taskSelect(people.sql, 'page JOIN wf_task t ON t.id = page.id', 'page.total::int AS "__total", ')}
       ORDER BY ${order}`,
        params.values,
      ),
      TASK_PEOPLE,
    );
    if (rows.length)
      return this.page(
        rows.map((r) => this.flowRow(r, lang)),
        rows[0].__total,
        p,
      );
    const [{ total }] = await this.db(tenantId).query<{ total: number }>(
      `SELECT count(*)::int AS total FROM ${from} WHERE ${whereSql}`,
      params.values.slice(0, -2),
    );
    return this.page([], total, p);
  }

  /** Tasks assigned to the caller (claimed, or assigned by the model), newest first. */
  todo(actor: Actor, query: Query): Promise<Page> {
    const params = new Params();
    const where = [`t.tenant_id = ${params.add(actor.tenantId)}`, `t.assignee_id = ${params.add(actor.userId)}`, `t.status = 'active'`];
    const filters = listFilters(query, params, 't.create_time');
    return this.taskPage(actor.tenantId, [...where, ...filters], params, 't.id DESC', paging(query), actor.lang, filters.length > 0);
  }

  /** Unclaimed tasks the caller is a candidate for (as a user or through a role). */
  claim(actor: Actor, query: Query): Promise<Page> {
    const params = new Params();
    const groups = [...(actor.roleAliases ?? []), ...(actor.roleIds ?? [])];
    const where = [
      `t.status = 'active'`,
      't.assignee_id IS NULL',
      `(t.candidate_users && ARRAY[${params.add(actor.userId)}::bigint] OR t.candidate_groups && ${params.add(groups)}::varchar[])`,
      `t.tenant_id = ${params.add(actor.tenantId)}`,
    ];
    const filters = listFilters(query, params, 't.create_time');
    return this.taskPage(actor.tenantId, [...where, ...filters], params, 't.id DESC', paging(query), actor.lang, filters.length > 0);
  }

  /** How many tasks wait for the caller: assigned (待办) and waiting to be claimed (待签). */
  async counts(actor: Actor): Promise<{ todo: number; claim: number }> {
    const groups = [...(actor.roleAliases ?? []), ...(actor.roleIds ?? [])];
    const [row] = await this.db(actor.tenantId).query<{ todo: number; claim: number }>(
      `SELECT (SELECT count(*) FROM wf_task t WHERE t.tenant_id = $1 AND t.assignee_id = $2::bigint AND t.status = 'active')::int AS todo,
              (SELECT count(*) FROM wf_task t WHERE t.tenant_id = $1 AND t.status = 'active' AND t.assignee_id IS NULL
                 AND (t.candidate_users && ARRAY[$2::bigint] OR t.candidate_groups && $3::varchar[]))::int AS claim`,
      [actor.tenantId, actor.userId, groups],
    );
    return row;
  }

  /** Tasks the caller completed (approved or rejected), most recent first. */
  done(actor: Actor, query: Query): Promise<Page> {
    const params = new Params();
    const where = [`t.tenant_id = ${params.add(actor.tenantId)}`, `t.completed_by = ${params.add(actor.userId)}`, `t.status = 'completed'`];
    const filters = listFilters(query, params, 't.end_time');
    return this.taskPage(
      actor.tenantId,
      [...where, ...filters],
      params,
      't.end_time DESC, t.id DESC',
      paging(query),
      actor.lang,
      filters.length > 0,
    );
  }

  /** One task as BladeFlow (the handle page), or undefined. */
  async task(actor: Actor, taskId: string): Promise<Row | undefined> {
    const people = await this.people(actor.tenantId);
    const [row] = await people.fill(
      await this.db(actor.tenantId).query(`${this.taskSelect(people.sql)} WHERE t.id = $1 AND t.tenant_id = $2`, [taskId, actor.tenantId]),
      TASK_PEOPLE,
    );
    return row && this.flowRow(row, actor.lang);
  }

  private instanceSelect(u: UserSql, head = 'wf_instance i', extra = ''): string {
    return `SELECT ${extra}i.id::text AS "processInstanceId", i.status, i.business_key AS "businessKey", i.business_table AS "businessTable",
        i.business_id::text AS "businessId", i.business_title AS "businessTitle", i.initiator_id::text AS "startUserId", ${u.nameOf('us')} AS "startUser",
        ${time('i.start_time')} AS "startTime", ${time('i.end_time')} AS "endTime", i.end_activity_id AS "endActivityId", i.delete_reason AS "deleteReason",
        i.state -> 'tokens' AS tokens,
        d.id AS "processDefinitionId", d.def_key AS "processDefinitionKey", d.name AS "processDefinitionName", d.version AS "processDefinitionVersion", d.category, d.suspended
      FROM ${head} JOIN wf_definition d ON d.id = i.definition_id ${u.nameJoin('us', 'i.initiator_id')}`;
  }

  private instanceRow(r: Row, lang: Lang): Row {
    const activities = [...new Set(((r.tokens ?? []) as { at: string }[]).map((tk) => tk.at))];
    return {
      id: r.processInstanceId,
      name: r.processDefinitionName,
      processInstanceId: r.processInstanceId,
      executionId: r.processInstanceId,
      processDefinitionId: r.processDefinitionId,
      processDefinitionKey: r.processDefinitionKey,
      processDefinitionName: r.processDefinitionName,
      processDefinitionVersion: r.processDefinitionVersion,
      category: r.category ?? '',
      categoryName: categoryName(r.category, this.catalog, lang),
      route: prefixOfCategory(r.category) ?? '',
      startUserId: r.startUserId,
      startUser: r.startUser ?? '',
      startTime: r.startTime,
      endTime: r.endTime ?? '',
      activityId: activities.join(','),
      taskDefinitionKey: activities.join(','),
      status: r.status,
      processIsFinished: r.status === 'running' ? 'unfinished' : 'finished',
      suspensionState: r.suspended ? 2 : 1,
      businessKey: r.businessKey ?? '',
      businessTable: r.businessTable ?? '',
      businessId: r.businessId ?? '',
      businessTitle: r.businessTitle ?? '',
      endActivityId: r.endActivityId ?? '',
      deleteReason: r.deleteReason ?? '',
    };
  }

  /** A page of instances in one statement, as taskPage. */
  private async instancePage(tenantId: string, where: string[], params: Params, p: Paging, lang: Lang, filterJoin: boolean): Promise<Page> {
    const whereSql = where.join(' AND ');
    const from = filterJoin ? 'wf_instance i JOIN wf_definition d ON d.id = i.definition_id' : 'wf_instance i';
    const limit = params.add(p.size);
    const offset = params.add((p.current - 1) * p.size);
    const people = await this.people(tenantId);
    const rows = await people.fill(
      await queryPrepared(
        this.db(tenantId),
        `WITH page AS (SELECT i.id, count(*) OVER () AS total FROM ${from} WHERE ${whereSql} ORDER BY i.id DESC LIMIT ${limit} OFFSET ${offset})
       ${this.instanceSelect(people.sql, 'page JOIN wf_instance i ON i.id = page.id', 'page.total::int AS "__total", ')}
       ORDER BY i.id DESC`,
        params.values,
      ),
      INSTANCE_PEOPLE,
    );
    if (rows.length)
      return this.page(
        rows.map((r) => this.instanceRow(r, lang)),
        rows[0].__total,
        p,
      );
    const [{ total }] = await this.db(tenantId).query<{ total: number }>(
      `SELECT count(*)::int AS total FROM ${from} WHERE ${whereSql}`,
      params.values.slice(0, -2),
    );
    return this.page([], total, p);
  }

  /** Instances the caller started (send-list), running or ended. */
  sent(actor: Actor, query: Query): Promise<Page> {
    const params = new Params();
    const where = [`i.tenant_id = ${params.add(actor.tenantId)}`, `i.initiator_id = ${params.add(actor.userId)}`];
    const filters = listFilters(query, params, 'i.start_time');
    return this.instancePage(actor.tenantId, [...where, ...filters], params, paging(query), actor.lang, filters.length > 0);
  }

  /** Running instances of the tenant (follow/list), optionally one instance or one process key. */
  running(actor: Actor, query: Query): Promise<Page> {
    const params = new Params();
    const where = [`i.tenant_id = ${params.add(actor.tenantId)}`, `i.status = 'running'`];
    if (query.processInstanceId) where.push(`i.id = ${params.add(parseId(query.processInstanceId, 'processInstanceId'))}::bigint`);
    const filters = listFilters(query, params, 'i.start_time');
    return this.instancePage(actor.tenantId, [...where, ...filters], params, paging(query), actor.lang, filters.length > 0);
  }

  async instance(actor: Actor, instanceId: string): Promise<Row | undefined> {
    const people = await this.people(actor.tenantId);
    const [row] = await people.fill(
      await this.db(actor.tenantId).query(`${this.instanceSelect(people.sql)} WHERE i.id = $1 AND i.tenant_id = $2`, [
        instanceId,
        actor.tenantId,
      ]),
      INSTANCE_PEOPLE,
    );
    return row && this.instanceRow(row, actor.lang);
  }

  /** The timeline of an instance: start, each task (with who, when, how long, the comment) and the end. */
  async history(actor: Actor, instanceId: string): Promise<Row[]> {
    const people = await this.people(actor.tenantId);
    const u = people.sql;
    const rows = await people.fill(
      await this.db(actor.tenantId).query(
        `SELECT h.id::text AS id, h.activity_id AS "historyActivityId", h.activity_name AS "historyActivityName", h.activity_type AS "historyActivityType",
          ${time('h.start_time')} AS "createTime", ${time('h.end_time')} AS "endTime",
          extract(epoch FROM (h.end_time - h.start_time))::int AS seconds,
          coalesce(t.completed_by, h.assignee_id, CASE WHEN h.activity_type = 'startEvent' THEN i.initiator_id END)::text AS assignee,
          ${u.nameOf('ua')} AS "assigneeName", t.id::text AS "taskId", t.status AS "taskStatus", t.outcome, t.comment,
          t.candidate_groups::text[] AS "candidateGroups", i.id::text AS "processInstanceId"
        FROM wf_history h JOIN wf_instance i ON i.id = h.instance_id
        LEFT JOIN wf_task t ON t.id = h.task_id
        ${u.nameJoin('ua', `coalesce(t.completed_by, h.assignee_id, CASE WHEN h.activity_type = 'startEvent' THEN i.initiator_id END)`)}
       WHERE h.instance_id = $1 AND i.tenant_id = $2 AND h.activity_type IN ('startEvent', 'userTask', 'endEvent')
       ORDER BY h.id`,
        [instanceId, actor.tenantId],
      ),
      [['assignee', 'assigneeName']],
    );
    return rows.map((r) => ({
      ...r,
      historyActivityDurationTime: durationText(r.seconds, actor.lang),
      seconds: undefined,
      taskId: r.taskId ?? '',
      assignee: r.assignee ?? '',
      assigneeName: r.assigneeName ?? '',
      endTime: r.endTime ?? '',
      comment: r.comment ?? '',
      isPass: r.outcome === 'approve',
      flag: r.outcome === 'approve' ? 'ok' : '',
      processInstanceId: r.processInstanceId,
    }));
  }

  /** Diagram data: the model's XML and the activities passed (no endTime = where it waits now). */
  async modelView(actor: Actor, query: Query): Promise<{ xml: string; flow: Row[] } | undefined> {
    if (query.processInstanceId) {
      const [inst] = await this.db(actor.tenantId).query<{ xml: string }>(
        'SELECT d.xml FROM wf_instance i JOIN wf_definition d ON d.id = i.definition_id WHERE i.id = $1::bigint AND i.tenant_id = $2',
        [parseId(query.processInstanceId, 'processInstanceId'), actor.tenantId],
      );
      if (!inst) return undefined;
      const flow = await this.db(actor.tenantId).query(
        `SELECT h.activity_id AS "historyActivityId", h.activity_name AS "historyActivityName", h.activity_type AS "historyActivityType",
            ${time('h.start_time')} AS "startTime", ${time('h.end_time')} AS "endTime", h.assignee_id::text AS assignee
           FROM wf_history h WHERE h.instance_id = $1::bigint ORDER BY h.id`,
        [parseId(query.processInstanceId, 'processInstanceId')],
      );
      return { xml: inst.xml, flow: flow.map((f) => ({ ...f, endTime: f.endTime ?? '', assignee: f.assignee ?? '' })) };
    }
    if (query.processDefinitionId) {
      const [def] = await this.db(actor.tenantId).query<{ xml: string }>('SELECT xml FROM wf_definition WHERE id = $1 AND tenant_id = $2', [
        query.processDefinitionId,
        actor.tenantId,
      ]);
      return def && { xml: def.xml, flow: [] };
    }
    throw badRequest('missingParam', { param: 'processInstanceId' });
  }

  /** Whether the caller may claim a task: it is open, unclaimed, and the caller one of its candidates. */
  async claimable(actor: Actor, taskId: string): Promise<boolean> {
    const groups = [...(actor.roleAliases ?? []), ...(actor.roleIds ?? [])];
    const [row] = await this.db(actor.tenantId).query(
      `SELECT 1 FROM wf_task t WHERE t.id = $1 AND t.tenant_id = $2 AND t.status = 'active' AND t.assignee_id IS NULL
          AND (t.candidate_users && ARRAY[$3::bigint] OR t.candidate_groups && $4::varchar[])`,
      [taskId, actor.tenantId, actor.userId, groups],
    );
    return row !== undefined;
  }

  /** Whether the caller took part in an instance: started it, or holds, held or could claim one of its tasks. */
  async participates(actor: Actor, instanceId: string): Promise<boolean> {
    const groups = [...(actor.roleAliases ?? []), ...(actor.roleIds ?? [])];
    const [row] = await this.db(actor.tenantId).query(
      `SELECT 1 FROM wf_instance i WHERE i.id = $1::bigint AND i.tenant_id = $2 AND (i.initiator_id = $3::bigint OR EXISTS (
         SELECT 1 FROM wf_task t WHERE t.instance_id = i.id AND (t.assignee_id = $3::bigint OR t.completed_by = $3::bigint
           OR (t.status = 'active' AND t.assignee_id IS NULL AND (t.candidate_users && ARRAY[$3::bigint] OR t.candidate_groups && $4::varchar[])))))`,
      [instanceId, actor.tenantId, actor.userId, groups],
    );
    return row !== undefined;
  }
}
