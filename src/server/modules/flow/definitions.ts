// Process definitions: deploying BPMN (from the designer's models, from uploaded files, or the
// defaults in schemas/workflows) as immutable, versioned definitions per tenant, and the compiled
// graphs the interpreter runs, cached by definition id (a definition never changes once deployed).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileDefinition, type ProcessGraph } from '../../../engine/workflow/definition.ts';
import { evaluateList, isExpression } from '../../../engine/workflow/expression.ts';
import type { EntityCatalog, Lang } from '../../../engine/model/types.ts';
import { nowText } from '../../clock.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { nextId } from '../../db/ids.ts';
import { engineCall, flowError } from './errors.ts';
import { categoryOf } from './prefixes.ts';

export type DeploySource = 'default' | 'upload' | 'model';

export interface DefinitionRow {
  id: string;
  tenantId: string;
  deploymentId: string;
  key: string;
  version: number;
  name: string;
  category: string | null;
  description: string | null;
  resourceName: string;
  suspended: boolean;
  deployTime: string;
}

export interface DefaultProcess {
  key: string;
  file: string;
  xml: string;
  hash: string;
}

export const DEFINITION_COLUMNS = `d.id, d.tenant_id AS "tenantId", d.deployment_id::text AS "deploymentId", d.def_key AS key, d.version, d.name,
  d.category, d.description, d.resource_name AS "resourceName", d.suspended, to_char(d.deploy_time, 'YYYY-MM-DD HH24:MI:SS') AS "deployTime"`;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** The default processes shipped in schemas/workflows (read once; compiled when first deployed). */
export function readDefaultProcesses(dir: string): DefaultProcess[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.bpmn'))
    .sort()
    .map((file) => {
      const xml = readFileSync(join(dir, file), 'utf8');
      return { key: file.replace(/\.bpmn$/, ''), file, xml, hash: sha1(xml) };
    });
}

/** FlowProcess, the platform's shape of a definition in start-list and manager/list. */
export function flowProcess(row: DefinitionRow, catalog: EntityCatalog, lang: Lang) {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    key: row.key,
    category: row.category ?? '',
    categoryName: categoryName(row.category, catalog, lang),
    version: row.version,
    deploymentId: row.deploymentId,
    resourceName: row.resourceName,
    diagramResourceName: row.resourceName,
    description: row.description ?? '',
    suspensionState: row.suspended ? 2 : 1,
    deploymentTime: row.deployTime,
  };
}

/** A category's name: the `flow` dictionary's entry when there is one, else the workflow prefix's label. */
/** A category's name: the `flow` dictionary's entry for flow_<key> (the 28 document categories and BladeX's own). */
export function categoryName(category: string | null, catalog: EntityCatalog, lang: Lang): string {
  if (!category) return '';
  const key = category.replace(/^flow_/, '');
  const item = catalog.dictionaries.find((d) => d.code === 'flow')?.items.find((i) => i.key === key);
  return item ? (lang === 'en' ? item.en : item.value) : category;
}

export interface DeployInput {
  tenantId: string;
  xml: string;
  source: DeploySource;
  resourceName: string;
  userId: string | null;
  category?: string;
  /** the deployment's name (default: the process name) */
  name?: string;
}

export class DefinitionStore {
  private readonly graphs = new Map<string, Promise<ProcessGraph>>();
  private readonly byHash = new Map<string, Promise<ProcessGraph>>();
  /** tenants whose default processes this process has already put in place */
  private readonly ensured = new Set<string>();

  /** `prefixes`: the schemas' workflow prefixes; a process deployed under one of them joins its category */
  constructor(
    private readonly db: (tenantId: string) => Db,
    private readonly timeZone: string,
    private readonly defaults: readonly DefaultProcess[],
    private readonly prefixes: readonly string[],
  ) {}

  /** Compiles XML (refusals become 400 answers); the same text is compiled once per process. */
  compile(xml: string): Promise<ProcessGraph> {
    const hash = sha1(xml);
    let graph = this.byHash.get(hash);
    if (!graph) {
      graph = engineCall(() => compileDefinition(xml));
      this.byHash.set(hash, graph);
      graph.catch(() => this.byHash.delete(hash));
    }
    return graph;
  }

  /** The roles (aliases) the default processes hand tasks to, literally: a new tenant needs them. */
  async defaultGroups(): Promise<string[]> {
    const groups = new Set<string>();
    for (const process of this.defaults) {
      for (const node of Object.values((await this.compile(process.xml)).nodes)) {
        if (node.candidateGroups && !isExpression(node.candidateGroups))
          evaluateList(node.candidateGroups, {}).forEach((g) => groups.add(g));
      }
    }
    return [...groups].sort();
  }

  /** The compiled graph of a deployed definition. */
  graph(db: Queryable, id: string): Promise<ProcessGraph> {
    let graph = this.graphs.get(id);
    if (!graph) {
      graph = db.query<{ xml: string }>('SELECT xml FROM wf_definition WHERE id = $1', [id]).then(([row]) => {
        if (!row) throw flowError('definitionNotFound', {}, 404);
        return this.compile(row.xml);
      });
      this.graphs.set(id, graph);
      graph.catch(() => this.graphs.delete(id));
    }
    return graph;
  }

  /** A live (not deleted) definition of the tenant. */
  async byId(db: Queryable, tenantId: string, id: string): Promise<DefinitionRow | undefined> {
    const [row] = await db.query<DefinitionRow>(
      `SELECT ${DEFINITION_COLUMNS} FROM wf_definition d WHERE d.id = $1 AND d.tenant_id = $2 AND d.is_deleted = 0`,
      [id, tenantId],
    );
    return row;
  }

  /** The newest version of a key in a tenant (suspended or not). */
  async latest(db: Queryable, tenantId: string, key: string): Promise<DefinitionRow | undefined> {
    const [row] = await db.query<DefinitionRow>(
      `SELECT ${DEFINITION_COLUMNS} FROM wf_definition d WHERE d.tenant_id = $1 AND d.def_key = $2 AND d.is_deleted = 0 ORDER BY d.version DESC LIMIT 1`,
      [tenantId, key],
    );
    return row;
  }

  /**
   * Deploys a model as the next version of its process key. Compiled first (a refused model
   * changes nothing); the version is taken under a per-tenant-and-key lock.
   */
  async deploy(input: DeployInput, tx?: Queryable): Promise<DefinitionRow> {
    const graph = await this.compile(input.xml);
    const run = async (q: Queryable) => {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`wf-deploy:${input.tenantId}:${graph.key}`]);
      const previous = await this.latest(q, input.tenantId, graph.key);
      const [{ top }] = await q.query<{ top: number | null }>(
        'SELECT max(version) AS top FROM wf_definition WHERE tenant_id = $1 AND def_key = $2',
        [input.tenantId, graph.key],
      );
      const version = (top ?? 0) + 1;
      const category = input.category || previous?.category || (this.prefixes.includes(graph.key) ? categoryOf(graph.key) : null);
      const deploymentId = nextId();
      const id = `${graph.key}:${version}:${deploymentId}`;
      const now = nowText(this.timeZone);
      await q.query(
        `INSERT INTO wf_deployment (id, tenant_id, name, category, source, resource_hash, deploy_user, deploy_time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          deploymentId,
          input.tenantId,
          (input.name || graph.name).slice(0, 200),
          category,
          input.source,
          sha1(input.xml),
          input.userId,
          now,
        ],
      );
      await q.query(
        `INSERT INTO wf_definition (id, tenant_id, deployment_id, def_key, version, name, category, description, resource_name, xml, deploy_time)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          id,
          input.tenantId,
          deploymentId,
          graph.key,
          version,
          graph.name.slice(0, 200),
          category,
          graph.description || null,
          input.resourceName.slice(0, 200),
          input.xml,
          now,
        ],
      );
      this.graphs.set(id, Promise.resolve(graph));
      return (await this.byId(q, input.tenantId, id))!;
    };
    return tx ? run(tx) : this.db(input.tenantId).transaction(run);
  }

  /**
   * Puts the default processes in place for a tenant: each key the tenant never had gets the
   * shipped model; a changed shipped model becomes a new version only where the tenant still runs
   * a default (a tenant's own deployment, or a default it deleted, is left alone).
   */
  async ensureDefaults(tenantId: string): Promise<number> {
    if (this.ensured.has(tenantId) || !this.defaults.length) return 0;
    let deployed = 0;
    await this.db(tenantId).transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`wf-defaults:${tenantId}`]);
      const seeded = new Map(
        (
          await tx.query<{ key: string; hash: string }>(
            'SELECT def_key AS key, resource_hash AS hash FROM wf_default_seed WHERE tenant_id = $1',
            [tenantId],
          )
        ).map((r) => [r.key, r.hash]),
      );
      const latest = new Map(
        (
          await tx.query<{ key: string; source: string }>(
            `SELECT DISTINCT ON (d.def_key) d.def_key AS key, dep.source FROM wf_definition d JOIN wf_deployment dep ON dep.id = d.deployment_id
          WHERE d.tenant_id = $1 AND d.is_deleted = 0 ORDER BY d.def_key, d.version DESC`,
            [tenantId],
          )
        ).map((r) => [r.key, r.source]),
      );
      for (const process of this.defaults) {
        const known = seeded.get(process.key);
        const fresh = known === undefined && !latest.has(process.key);
        const upgraded = known !== undefined && known !== process.hash && latest.get(process.key) === 'default';
        if (fresh || upgraded) {
          await this.deploy(
            { tenantId, xml: process.xml, source: 'default', resourceName: process.file, userId: null, category: categoryOf(process.key) },
            tx,
          );
          deployed++;
        }
        if (known !== process.hash) {
          await tx.query(
            `INSERT INTO wf_default_seed (tenant_id, def_key, resource_hash) VALUES ($1, $2, $3)
             ON CONFLICT (tenant_id, def_key) DO UPDATE SET resource_hash = EXCLUDED.resource_hash`,
            [tenantId, process.key, process.hash],
          );
        }
      }
    });
    this.ensured.add(tenantId);
    return deployed;
  }
}
