// First-start data. Runs once per database (a row in zs_setting records it), so a second start
// re-opens the data as it was. Seeding is all-or-nothing: the row says "running" until the last
// step is done, so a first start that stopped part-way leaves a database the next start clears and
// seeds again from scratch (see seedOnce). The schema set's reference data (dictionaries, menus,
// roles, grants: src/server/reference/) is converged first; then come the files of
// schemas/seed/*.json, in file-name order, written through the same stores as any request (so it is
// validated like user input). Records refer to each other with "@name" placeholders; the declared
// roles answer to their alias ("@project_clerk").
//
// A seed file holds steps:
//   { "entity": "dept", "name": "hq", "data": {…} }        create a record
//   { "topMenu": "@cost", "menus": ["cost_master"] }        the menus a top menu shows
//   { "package": { "name": "全部菜单", "remark": "…" } }       a tenant package of every menu and button
//   { "package": { "perGroup": true } }                      a package per top-level menu group, named after it
// Demo records can be written as a named user and taken through their approval process
// (see approvals.ts), so that instances, tasks, history and approval status agree:
//   { "entity": "…", "name": "doc", "data": {…}, "as": "clerk" }   created by the user with that account
//   { "submit": "@doc", "as": "clerk" }                        the user submits it (starts its process)
//   { "claim": "@doc", "as": "manager" }                       the user takes the task offered to their role
//   { "approve": "@doc", "as": "manager", "comment": "同意" }   the user completes their task on it ("as": [...]:
//                                                              each in turn, until the process ends)
//   { "reject": "@doc", "as": "costmgr", "comment": "…" }      the user rejects it back to its submitter
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityCatalog, EntityModel } from '../../engine/model/types.ts';
import { nowText } from '../clock.ts';
import type { DemoLevel } from '../config.ts';
import type { Queryable, Row } from '../db/db.ts';
import { nextId } from '../db/ids.ts';
import { q } from '../db/sql.ts';
import { tableSpecs } from '../db/sync.ts';
import { EntityStore, PLATFORM_TENANT, type Actor, type StoreContext } from '../db/store.ts';
import type { DocumentFlow } from '../modules/flow/documents.ts';
import { subtreesOf } from '../reference/declared.ts';
import { claimStep, decideStep, SeedRun, submitStep, type ApprovalStep } from './approvals.ts';

/** The seeded platform administrator's ids (the platform's well-known values). */
export const SEED_ADMIN = { userId: '1123598821738675201', deptId: '1123598813738675201' };

type SeedStep =
  | { entity: string; name?: string; data: Row; as?: string }
  | ApprovalStep
  | { topMenu: string; menus: string[] }
  | { package: PackageStep };

/** Seeded tenant packages: one of every menu, or one per top-level menu group. */
type PackageStep = { name: string; remark?: string; perGroup?: false } | { perGroup: true; remark?: string };

export interface SeedFile {
  /**
   * "platform" data is always seeded; "demo" (the demo company's master data and drafts) unless
   * the demo is off; "history" (its months of documents through their approvals) with the full demo.
   */
  kind?: 'platform' | 'demo' | 'history';
  records: SeedStep[];
}

export interface SeedOptions {
  dir: string;
  demo: DemoLevel;
  /** the workflow module, for seed files that submit and approve records */
  flow?: DocumentFlow;
  /** Told after each step: the first start with the full demo takes a while */
  onProgress?: SeedProgress;
}

/** Steps done of all the steps this seed runs, and the file being seeded. */
export type SeedProgress = (done: number, total: number, file: string) => void;

const platformActor: Actor = { tenantId: PLATFORM_TENANT, userId: SEED_ADMIN.userId, deptId: SEED_ADMIN.deptId, lang: 'zh' };

/** "@name" → the id of the record seeded under that name; "@name.path" → a value of it as saved (e.g. "@june.cumulativeAmount", "@june.details.0.cumulativeQty"). */
function resolvePlaceholders(value: unknown, run: SeedRun): unknown {
  if (typeof value === 'string' && value.startsWith('@')) return run.lookup(value);
  if (Array.isArray(value)) return value.map((v) => resolvePlaceholders(v, run));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolvePlaceholders(v, run)]));
  return value;
}

/** The platform tenant itself: inserted as it is (a new tenant would get a generated number and accounts). */
async function seedPlatformTenant(ctx: StoreContext) {
  const now = nowText(ctx.timeZone);
  await ctx.db.query(
    `INSERT INTO ${q(ctx.catalog.entities.tenant.table)} (id, tenant_id, tenant_name, linkman, contact_number, account_number, create_user, create_dept, create_time, update_user, update_time, is_deleted)
     VALUES ($1, $2, '筑算平台', 'admin', '', -1, $3, $4, $5, $3, $5, 0)`,
    [nextId(), PLATFORM_TENANT, SEED_ADMIN.userId, SEED_ADMIN.deptId, now],
  );
}

interface MenuRow {
  id: string;
  parentId: string;
  code: string;
  category: number;
}

export async function menuRows(db: Queryable, menu: EntityModel): Promise<MenuRow[]> {
  return db.query<MenuRow>(
    `SELECT id::text AS id, parent_id::text AS "parentId", code, category FROM ${q(menu.table)} WHERE is_deleted = 0`,
  );
}

/** The stored menus of the subtrees rooted at `codes`. */
function subtrees(rows: MenuRow[], codes: string[]): MenuRow[] {
  const roots = codes.map((code) => {
    const root = rows.find((r) => r.code === code);
    if (!root) throw new Error(`seed: no menu with code ${code}`);
    return root;
  });
  return subtreesOf(
    rows,
    roots,
    (r) => r.id,
    (r) => r.parentId,
  );
}

/**
 * An installation seeded before an entity's list page moved (x-entity.menu.formerPaths) still has
 * its menu entry at the old route: moved to the new one, in one statement, on every start. An entry
 * a tenant pointed elsewhere is left alone. Answers how many entries moved.
 */
export async function moveFormerMenuPaths(db: Queryable, catalog: EntityCatalog): Promise<number> {
  const moves = Object.values(catalog.entities)
    .filter((m) => m.menu?.formerPaths.length)
    .map((m) => ({ code: m.menu!.code, path: m.menu!.path, former: m.menu!.formerPaths }));
  if (!moves.length) return 0;
  const moved = await db.query(
    `UPDATE ${q(catalog.entities.menu.table)} m SET path = x.path
       FROM jsonb_to_recordset($1::jsonb) AS x(code text, path text, former jsonb)
      WHERE m.code = x.code AND m.category = 1 AND m.path IN (SELECT jsonb_array_elements_text(x.former))
      RETURNING m.id`,
    [JSON.stringify(moves)],
  );
  return moved.length;
}

async function seedTopMenu(ctx: StoreContext, step: Extract<SeedStep, { topMenu: string }>, run: SeedRun) {
  const rows = await menuRows(ctx.db, ctx.catalog.entities.menu);
  const topMenuId = resolvePlaceholders(step.topMenu, run) as string;
  for (const menu of subtrees(rows, step.menus).filter((r) => r.category === 1)) {
    await ctx.db.query(`INSERT INTO blade_top_menu_setting (top_menu_id, menu_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      topMenuId,
      menu.id,
    ]);
  }
}

/**
 * Tenant packages, written through the package store like the form's save: a package of every menu
 * and button a tenant can be granted, or one per top-level group (its menus and buttons, the group's
 * name as the package's). The pages of platform records (tenants, packages, OAuth clients)
 * are no tenant's to use and are left out.
 */
async function seedPackages(ctx: StoreContext, step: PackageStep) {
  const all = await menuRows(ctx.db, ctx.catalog.entities.menu);
  const platformOnly = Object.values(ctx.catalog.entities).flatMap((m) => (m.scope === 'platform' && m.menu ? [m.menu.code] : []));
  const excluded = new Set(subtrees(all, platformOnly).map((m) => m.id));
  const rows = all.filter((m) => !excluded.has(m.id));
  const store = new EntityStore(ctx, ctx.catalog.entities.tenantPackage, platformActor);
  const save = (packageName: string, menus: MenuRow[], remark = step.remark) =>
    store.create({ packageName, menuId: menus.map((m) => m.id).join(','), ...(remark && { remark }) });
  if (!step.perGroup) return void (await save(step.name, rows));
  const groups = await ctx.db.query<{ code: string; name: string }>(
    `SELECT code, name FROM ${q(ctx.catalog.entities.menu.table)} WHERE parent_id = 0 AND category = 1 AND is_deleted = 0 ORDER BY sort, id`,
  );
  for (const group of groups) await save(group.name, subtrees(rows, [group.code]), step.remark?.replace('{group}', group.name));
}

async function seedStep(ctx: StoreContext, step: SeedStep, run: SeedRun) {
  if ('package' in step) return seedPackages(ctx, step.package);
  if ('topMenu' in step) return seedTopMenu(ctx, step, run);
  if ('submit' in step) return submitStep(ctx, run, step);
  if ('claim' in step) return claimStep(ctx, run, step);
  if ('approve' in step || 'reject' in step) return decideStep(ctx, run, step);
  const model = ctx.catalog.entities[step.entity];
  if (!model) throw new Error(`seed: unknown entity ${step.entity}`);
  const actor = step.as ? await run.actorOf(step.as) : platformActor;
  const data = resolvePlaceholders(step.data, run) as Row;
  const store = new EntityStore(ctx, model, actor);
  const id = await store.insert(data, { createdAt: documentDate(model, data, nowText(ctx.timeZone)) });
  // later steps name its id or a header value (its generated code)
  if (step.name) run.remember(step.name, model.key, await store.header(id));
}

/** A seeded record's first date or month field with a value (a settlement's period, a contract's signing date, a plan's date). */
function firstDateField(model: EntityModel, data: Row) {
  return model.fields.find(
    (f) =>
      !f.system &&
      (f.kind === 'date' || f.kind === 'month') &&
      typeof data[f.name] === 'string' &&
      /^\d{4}-\d{2}/.test(data[f.name] as string),
  );
}

/** The month a seeded document is numbered in: that of its first date or month field; undefined (today) without one. */
export function documentMonth(model: EntityModel, data: Row): string | undefined {
  const field = firstDateField(model, data);
  return field && (data[field.name] as string).slice(0, 7);
}

/**
 * When a seeded document was made, so that a history spread over months reads like one: its
 * numbering, its creation time and the rules that compare a settlement's period with the month it
 * was prepared in agree with its own date (a month's documents on the 25th). Undefined (now) for a
 * record without a date, or one dated after `now`.
 */
export function documentDate(model: EntityModel, data: Row, now: string): string | undefined {
  const field = firstDateField(model, data);
  if (!field) return undefined;
  const value = data[field.name] as string;
  const at = `${field.kind === 'month' ? `${value.slice(0, 7)}-25` : value.slice(0, 10)} 09:00:00`;
  return at < now ? at : undefined;
}

export function readSeedFiles(dir: string): { file: string; seed: SeedFile }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: f, seed: JSON.parse(readFileSync(join(dir, f), 'utf8')) as SeedFile }));
}

function seeds(file: SeedFile, demo: DemoLevel): boolean {
  if (file.kind === 'demo') return demo !== 'off';
  if (file.kind === 'history') return demo === 'full';
  return true;
}

/** zs_setting's seed.version while the first seed runs, and once it has finished. */
const SEED_RUNNING = 'running';
const SEEDED = '1';

/** What seedOnce did: nothing (seeded before), a first seed, or a seed again after one that stopped part-way. */
export type SeedOutcome = 'seeded before' | 'seeded' | 'seeded again';

/** The ready line's note after a start that found a first seed stopped part-way and seeded again. */
export const RESEEDED_NOTE = 'an earlier first start stopped while seeding: its data was cleared and the database seeded again';

/**
 * Seeds an empty database, and brings the reference data up to the schema set on every start
 * (`converge`: before the seed on a first start, which the seed's records build on). The marker is
 * claimed first and says "done" only after the last step, so a first start that fails or is killed
 * part-way leaves it "running". Start-up holds the database to itself meanwhile (the advisory lock on
 * PostgreSQL, the data directory's lock on the embedded one), so a start that finds it "running" knows
 * that seed is dead: it empties the seeded tables (`tables`) and seeds again from scratch, rather than
 * serving half a seed.
 */
export async function seedOnce(
  ctx: StoreContext,
  options: SeedOptions & { tables: string[]; converge: (first: boolean) => Promise<unknown> },
): Promise<SeedOutcome> {
  // whoever inserts the marker seeds; another process that started at the same moment skips
  const claimed = await ctx.db.query(
    `INSERT INTO zs_setting (key, value) VALUES ('seed.version', $1) ON CONFLICT (key) DO NOTHING RETURNING key`,
    [SEED_RUNNING],
  );
  let outcome: SeedOutcome = 'seeded';
  if (!claimed.length) {
    const [marker] = await ctx.db.query<{ value: string }>(`SELECT value FROM zs_setting WHERE key = 'seed.version'`);
    if (marker?.value !== SEED_RUNNING) {
      await options.converge(false);
      return 'seeded before';
    }
    await clearTables(ctx.db, options.tables);
    outcome = 'seeded again';
  }
  await seedPlatformTenant(ctx);
  await options.converge(true);
  await seedAll(ctx, options);
  await ctx.db.query(`UPDATE zs_setting SET value = $1 WHERE key = 'seed.version'`, [SEEDED]);
  return outcome;
}

/**
 * Every table a seed may have written (the models' with their detail and link tables, the modules',
 * the document number counters): the models' from the catalog, the others from the DDL that creates
 * them. zs_setting (the installation's keys, the marker) and zs_migration are not among them.
 */
export function seededTables(catalog: EntityCatalog, moduleDdl: string): string[] {
  const models = Object.values(catalog.entities).flatMap((model) => tableSpecs(model).map((spec) => spec.table));
  const modules = [...moduleDdl.matchAll(/CREATE TABLE IF NOT EXISTS\s+"?(\w+)"?/gi)].map((m) => m[1]);
  return [...new Set([...models, ...modules, 'zs_sequence'])];
}

/** Empties the tables of a seed that stopped part-way, in one statement (those that exist: all of them after the sync). */
async function clearTables(db: Queryable, tables: string[]) {
  const existing = await db.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename = ANY($1::text[])`,
    [tables],
  );
  if (existing.length) await db.query(`TRUNCATE ${existing.map((t) => q(t.name)).join(', ')} RESTART IDENTITY`);
}

async function seedAll(ctx: StoreContext, options: SeedOptions) {
  const run = new SeedRun(ctx, options.flow);
  await rememberRoles(ctx, run);
  const files = readSeedFiles(options.dir).filter(({ seed }) => seeds(seed, options.demo));
  const total = files.reduce((n, { seed }) => n + seed.records.length, 0);
  let done = 0;
  for (const { file, seed } of files) {
    for (const [i, step] of seed.records.entries()) {
      try {
        await seedStep(ctx, step, run);
      } catch (err) {
        throw new Error(`seed ${file} step ${i}: ${(err as Error).message}`, { cause: err });
      }
      options.onProgress?.(++done, total, file);
    }
  }
  await attributeToAdmin(ctx);
}

/** The declared roles, converged before the seed, as "@alias" placeholders. */
async function rememberRoles(ctx: StoreContext, run: SeedRun) {
  const roles = await ctx.db.query<{ id: string; alias: string }>(
    `SELECT id::text AS id, role_alias AS alias FROM ${q(ctx.catalog.entities.role.table)} WHERE tenant_id = $1 AND is_deleted = 0 ORDER BY id`,
    [PLATFORM_TENANT],
  );
  for (const role of roles) run.remember(role.alias, 'role', { id: role.id });
}

/**
 * Seeded records name their creator before the administrator's account exists; once it does,
 * they name the account itself, so 创建人 shows 管理员 rather than a number nobody can look up.
 */
async function attributeToAdmin(ctx: StoreContext) {
  const users = ctx.catalog.entities.user;
  const [admin] = await ctx.db.query<{ id: string }>(
    `SELECT id::text AS id FROM ${q(users.table)} WHERE account = 'admin' AND tenant_id = $1 AND is_deleted = 0`,
    [PLATFORM_TENANT],
  );
  if (!admin) return;
  const audited = Object.values(ctx.catalog.entities).flatMap((m) => [m, ...m.details]);
  for (const { table, fieldMap } of audited) {
    for (const field of [fieldMap.createUser, fieldMap.updateUser]) {
      if (field)
        await ctx.db.query(`UPDATE ${q(table)} SET ${q(field.column)} = $1 WHERE ${q(field.column)} = $2`, [admin.id, SEED_ADMIN.userId]);
    }
  }
}
