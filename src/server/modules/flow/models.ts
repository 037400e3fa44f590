// Process models: the designer's drafts (wf_model), saved as BPMN XML and deployed on request as
// the next version of their process. A draft may hold anything the designer can draw; the subset
// is checked when it is deployed.
import type { Lang } from '../../../engine/model/types.ts';
import type { FieldError } from '../../../engine/validate/record.ts';
import { t } from '../../../engine/i18n/messages.ts';
import { nowText } from '../../clock.ts';
import type { Db, Row } from '../../db/db.ts';
import { nextId } from '../../db/ids.ts';
import { Params } from '../../db/sql.ts';
import type { Actor, Page } from '../../db/store.ts';
import { ValidationFailed } from '../../errors.ts';
import { DEFINITION_LIMITS } from '../../../engine/workflow/definition.ts';
import type { Directory } from './directory.ts';
import { flowError } from './errors.ts';
import type { Paging } from './queries.ts';

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
const LABELS = {
  name: { zh: '模型名称', en: 'Model name' },
  modelKey: { zh: '模型标识', en: 'Model key' },
  xml: { zh: '流程文件', en: 'BPMN XML' },
};

/**
 * The id of the (first) process in a BPMN text, read without parsing it: what
 * /<(?:[\w-]+:)?process\b[^>]*?\sid\s*=\s*"([^"]+)"/ finds, in time linear in the text. That
 * expression looked, from every "<process", through all the text to the next ">" (the whole text
 * when there is none): 72 KB of "<process " took 1.2 s, and the text is read before its size is
 * checked. Here the attributes of each tag are searched once: tags that start inside a tag already
 * searched (no ">" between them) have the same attributes after them, and are skipped.
 */
export function processIdOf(xml: string): string | undefined {
  const tags = /<(?:[\w-]+:)?process\b/g;
  for (;;) {
    const tag = tags.exec(xml);
    if (!tag) return undefined;
    const start = tags.lastIndex;
    const gt = xml.indexOf('>', start);
    const attributes = xml.slice(start, gt === -1 ? xml.length : gt);
    const ids = /\sid\s*=\s*"/g;
    while (ids.exec(attributes)) {
      // the value runs to the next quote, past the tag's ">" if need be (as the expression's [^"]+)
      const open = start + ids.lastIndex;
      const close = xml.indexOf('"', open);
      if (close === -1) return undefined;
      if (close > open) return xml.slice(open, close);
    }
    if (gt === -1) return undefined;
    tags.lastIndex = gt + 1;
  }
}

export interface ModelInput {
  id?: string;
  name?: string;
  modelKey?: string;
  description?: string;
  category?: string;
  xml?: string;
}

export class FlowModels {
  constructor(
    private readonly db: (tenantId: string) => Db,
    private readonly timeZone: string,
    private readonly directory: Directory,
  ) {}

  private select(): string {
    const u = this.directory;
    return `SELECT m.id::text AS id, m.name, m.model_key AS "modelKey", m.description, m.category, m.version, m.tenant_id AS "tenantId",
        to_char(m.create_time, 'YYYY-MM-DD HH24:MI:SS') AS created, to_char(m.update_time, 'YYYY-MM-DD HH24:MI:SS') AS "lastUpdated",
        ${u.nameOf('uc')} AS "createdBy", ${u.nameOf('uu')} AS "lastUpdatedBy"
      FROM wf_model m ${u.nameJoin('uc', 'm.create_user')} ${u.nameJoin('uu', 'm.update_user')}`;
  }

  /** FlowModel, the platform's shape. */
  private shape(r: Row): Row {
    return {
      ...r,
      description: r.description ?? '',
      category: r.category ?? '',
      createdBy: r.createdBy ?? '',
      lastUpdatedBy: r.lastUpdatedBy ?? '',
      modelComment: r.description ?? '',
      modelType: 0,
      modelEditorJson: '',
    };
  }

  async list(actor: Actor, query: Record<string, string | undefined>, p: Paging): Promise<Page> {
    const params = new Params();
    const where = [`m.tenant_id = ${params.add(actor.tenantId)}`, 'm.is_deleted = 0'];
    if (query.name) where.push(`m.name LIKE ${params.add(`%${query.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
    if (query.modelKey) where.push(`m.model_key = ${params.add(query.modelKey)}`);
    const [{ total }] = await this.db(actor.tenantId).query<{ total: number }>(
      `SELECT count(*)::int AS total FROM wf_model m WHERE ${where.join(' AND ')}`,
      params.values,
    );
    const limit = params.add(p.size);
    const offset = params.add((p.current - 1) * p.size);
    const rows = await this.db(actor.tenantId).query(
      `${this.select()} WHERE ${where.join(' AND ')} ORDER BY m.update_time DESC, m.id DESC LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    );
    return { records: rows.map((r) => this.shape(r)), total, size: p.size, current: p.current, pages: Math.ceil(total / p.size) };
  }

  async detail(actor: Actor, id: string): Promise<Row> {
    const [row] = await this.db(actor.tenantId).query(
      `${this.select().replace('SELECT ', 'SELECT m.xml, ')} WHERE m.id = $1 AND m.tenant_id = $2 AND m.is_deleted = 0`,
      [id, actor.tenantId],
    );
    if (!row) throw flowError('modelNotFound', {}, 404);
    return { ...this.shape(row), modelEditorXml: row.xml };
  }

  private check(input: ModelInput, lang: Lang): Required<Pick<ModelInput, 'name' | 'modelKey' | 'xml'>> {
    const errors: FieldError[] = [];
    const xml = typeof input.xml === 'string' ? input.xml : '';
    const processId = processIdOf(xml);
    const modelKey = (input.modelKey || processId || '').trim();
    const name = String(input.name ?? '').trim();
    if (!name) errors.push({ path: '/name', message: t('required', lang, { field: LABELS.name }) });
    else if (name.length > 200) errors.push({ path: '/name', message: t('maxLength', lang, { field: LABELS.name, limit: 200 }) });
    if (!modelKey) errors.push({ path: '/modelKey', message: t('required', lang, { field: LABELS.modelKey }) });
    else if (!KEY.test(modelKey)) errors.push({ path: '/modelKey', message: t('pattern', lang, { field: LABELS.modelKey }) });
    if (!xml.trim()) errors.push({ path: '/xml', message: t('required', lang, { field: LABELS.xml }) });
    else if (xml.length > DEFINITION_LIMITS.bytes)
      errors.push({ path: '/xml', message: t('maxLength', lang, { field: LABELS.xml, limit: DEFINITION_LIMITS.bytes }) });
    if (errors.length) throw new ValidationFailed(errors);
    if (processId && processId !== modelKey) throw flowError('modelKeyMismatch', { key: modelKey, id: processId });
    return { name, modelKey, xml };
  }

  /** Creates or updates a draft (by id); the version counts saves. */
  async submit(actor: Actor, input: ModelInput): Promise<Row> {
    const { name, modelKey, xml } = this.check(input, actor.lang);
    const now = nowText(this.timeZone);
    const description = input.description ? String(input.description).slice(0, 1000) : null;
    const category = input.category ? String(input.category).slice(0, 100) : null;
    let id = input.id;
    try {
      if (id) {
        const rows = await this.db(actor.tenantId).query(
          `UPDATE wf_model SET name = $3, model_key = $4, description = $5, category = $6, xml = $7, version = version + 1, update_user = $8, update_time = $9
            WHERE id = $1 AND tenant_id = $2 AND is_deleted = 0 RETURNING id`,
          [id, actor.tenantId, name, modelKey, description, category, xml, actor.userId, now],
        );
        if (!rows.length) throw flowError('modelNotFound', {}, 404);
      } else {
        id = nextId();
        await this.db(actor.tenantId).query(
          `INSERT INTO wf_model (id, tenant_id, model_key, name, description, category, xml, create_user, create_time, update_user, update_time)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8, $9)`,
          [id, actor.tenantId, modelKey, name, description, category, xml, actor.userId, now],
        );
      }
    } catch (err) {
      if ((err as { code?: string }).code === '23505') {
        throw new ValidationFailed([{ path: '/modelKey', message: t('unique', actor.lang, { field: LABELS.modelKey, value: modelKey }) }]);
      }
      throw err;
    }
    return this.detail(actor, id);
  }

  async xmlOf(actor: Actor, id: string): Promise<{ xml: string; name: string; category: string | null }> {
    const [row] = await this.db(actor.tenantId).query<{ xml: string; name: string; category: string | null }>(
      'SELECT xml, name, category FROM wf_model WHERE id = $1 AND tenant_id = $2 AND is_deleted = 0',
      [id, actor.tenantId],
    );
    if (!row) throw flowError('modelNotFound', {}, 404);
    return row;
  }

  async remove(actor: Actor, ids: string[]): Promise<void> {
    await this.db(actor.tenantId).query(
      'UPDATE wf_model SET is_deleted = 1, update_user = $3, update_time = $4 WHERE id = ANY($1::bigint[]) AND tenant_id = $2',
      [ids, actor.tenantId, actor.userId, nowText(this.timeZone)],
    );
  }
}
