// Start-up migration: warnings and approval messages written before texts were stored as a key and
// parameters (i18n/stored-text.ts) held both languages in one field: a warning "中文 / English", an
// approval message a Chinese title and "中文\nEnglish" content (a warnings message: Chinese lines,
// a blank line, the English title, English lines). Each such value becomes the key and parameters
// it was rendered from where a catalog template reads back both halves exactly, else its two
// halves as a {zh, en} pair. A value already stored, or typed by a person, is left alone, so a
// second run changes nothing.
import { parseStoredText, renderStored, storeText, textRef, type StoredText } from '../../engine/i18n/stored-text.ts';
import { fill, messages } from '../../engine/i18n/messages.ts';
import type { EntityCatalog, EntityModel, Label } from '../../engine/model/types.ts';
import { optionalEntityWithRole } from '../../engine/model/roles.ts';
import { THRESHOLD_IS_BASE } from '../../packs/cost/engine/warnings/rules.ts';
import { WARNING_TEXTS } from '../../packs/cost/engine/warnings/texts.ts';
import { workflowMessages } from '../../engine/workflow/messages.ts';
import type { Queryable } from '../db/db.ts';
import { q } from '../db/sql.ts';

const CATALOGS: Readonly<Record<string, Readonly<Record<string, Label>>>> = {
  warning: WARNING_TEXTS,
  workflow: workflowMessages,
  msg: messages,
};

/**
 * The parameters that make `template` read `text`, or undefined. A scan, not a regular expression
 * built from the template: with several parameters such an expression backtracks polynomially on
 * a stored text (goods names are the users'), and this runs at start-up. Each parameter takes the
 * text up to the next occurrence of the literal that follows it (the last one up to the final
 * literal at the end); a text that reads the template only with another split is not recognized
 * and stays as it was stored.
 */
export function readTemplate(template: string, text: string): Record<string, string> | undefined {
  const parts = template.split(/(\{\w+\})/);
  const params: Record<string, string> = {};
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const name = /^\{(\w+)\}$/.exec(parts[i])?.[1];
    if (!name) {
      if (!text.startsWith(parts[i], at)) return undefined;
      at += parts[i].length;
      continue;
    }
    const next = parts[i + 1] ?? '';
    const isLast = i + 2 >= parts.length;
    let end: number;
    if (isLast) end = text.endsWith(next) && text.length - next.length >= at ? text.length - next.length : -1;
    else if (next) end = text.indexOf(next, at);
    else return undefined; // two parameters side by side: no literal to split them
    if (end < 0) return undefined;
    const value = text.slice(at, end);
    if (name in params && params[name] !== value) return undefined;
    params[name] = value;
    at = end;
  }
  return at === text.length ? params : undefined;
}

/** The key and parameters a Chinese text (and, if known, its English) was rendered from. */
export function recognize(zh: string, en?: string, keys?: readonly string[]): StoredText | undefined {
  for (const [prefix, catalog] of Object.entries(CATALOGS)) {
    for (const [name, label] of Object.entries(catalog)) {
      const key = `${prefix}.${name}`;
      if (keys && !keys.includes(key)) continue;
      const params = readTemplate(label.zh, zh);
      if (!params) continue;
      const ref = textRef(key, params);
      if (en === undefined || renderStored(ref, 'en') === en) return ref;
    }
  }
  return undefined;
}

/** A warning's "中文 / English" as a stored text; undefined when it is not of that form. */
export function formerWarning(text: string): StoredText | undefined {
  const warningKeys = Object.keys(WARNING_TEXTS).map((k) => `warning.${k}`);
  const splits = [...text.matchAll(/ \/ /g)].map((m) => m.index);
  for (const at of splits) {
    const ref = recognize(text.slice(0, at), text.slice(at + 3), warningKeys);
    if (ref) return ref;
  }
  return splits.length ? { zh: text.slice(0, splits[0]), en: text.slice(splits[0] + 3) } : undefined;
}

/** An approval message's Chinese title and bilingual content as stored texts. */
export function formerApprovalMessage(title: string, content: string): { title: StoredText; content: StoredText } | undefined {
  // a warnings message: Chinese lines, a blank line, the English title, the English lines
  const blank = content.indexOf('\n\n');
  if (blank >= 0) {
    const zhLines = content.slice(0, blank);
    const [enTitle, ...enLines] = content.slice(blank + 2).split('\n');
    const zh = readTemplate(WARNING_TEXTS.notifyTitle.zh, title);
    // the document's English name is what the English title has where the Chinese one has its code and count
    const en = zh && readTemplate(fill(WARNING_TEXTS.notifyTitle.en, { code: zh.code, count: zh.count }), enTitle ?? '');
    if (!zh || !en) return undefined;
    return {
      title: textRef('warning.notifyTitle', { ...zh, document: { zh: zh.document, en: en.document } }),
      content: { zh: zhLines, en: enLines.join('\n') },
    };
  }
  // a workflow notice: its title and "中文\nEnglish" content of the same key family
  const titleRef = recognize(
    title,
    undefined,
    ['Todo', 'Completed', 'Rejected', 'Terminated'].map((k) => `workflow.notice${k}Title`),
  );
  if (!titleRef) return undefined;
  const contentKey = (titleRef as { key: string }).key.replace(/Title$/, '');
  for (const m of content.matchAll(/\n/g)) {
    const ref = recognize(content.slice(0, m.index), content.slice(m.index + 1), [contentKey]);
    if (ref) return { title: titleRef, content: ref };
  }
  return undefined;
}

const column = (model: EntityModel, field: string) => q(model.fieldMap[field].column);

/**
 * Warnings recorded before their base was stored: the base is the threshold where the rule measures
 * against it, else none; the ratio (actual ÷ base) is computed again, empty without a base.
 */
async function baseOfFormerWarnings(db: Queryable, tip: EntityModel): Promise<number> {
  if (!tip.fieldMap.baseValue || !tip.fieldMap.ratio) return 0;
  const [base, ratio, actual] = ['baseValue', 'ratio', 'actualValue'].map((f) => column(tip, f));
  const rows = await db.query(
    `UPDATE ${q(tip.table)} SET ${base} = CASE WHEN ${column(tip, 'warnType')} = ANY($1::text[]) THEN ${column(tip, 'thresholdValue')} END,
            ${ratio} = CASE WHEN ${column(tip, 'warnType')} = ANY($1::text[]) AND ${column(tip, 'thresholdValue')} > 0
                            THEN round(coalesce(${actual}, 0) / ${column(tip, 'thresholdValue')} * 100, 2) END
      WHERE ${base} IS NULL AND (${ratio} IS NOT NULL OR (${column(tip, 'warnType')} = ANY($1::text[]) AND ${column(tip, 'thresholdValue')} IS NOT NULL))
      RETURNING id`,
    [THRESHOLD_IS_BASE],
  );
  return rows.length;
}

/** Migrates the warning records and system messages of one database; returns how many rows changed. */
export async function storeFormerTexts(db: Queryable, catalog: EntityCatalog): Promise<number> {
  let changed = 0;
  const tip = optionalEntityWithRole(catalog, 'warning.record');
  if (tip) {
    changed += await baseOfFormerWarnings(db, tip);
    const text = column(tip, 'message');
    const rows = await db.query<{ id: string; text: string }>(
      `SELECT id::text AS id, ${text} AS text FROM ${q(tip.table)} WHERE ${text} LIKE '% / %' AND ${text} NOT LIKE '{%'`,
    );
    for (const row of rows) {
      const stored = parseStoredText(row.text) ? undefined : formerWarning(row.text);
      if (!stored) continue;
      await db.query(`UPDATE ${q(tip.table)} SET ${text} = $1 WHERE id = $2`, [storeText(stored), row.id]);
      changed++;
    }
  }
  const message = catalog.entities.message;
  if (message && 'content' in message.fieldMap) {
    const rows = await db.query<{ id: string; title: string; content: string }>(
      `SELECT id::text AS id, ${column(message, 'title')} AS title, ${column(message, 'content')} AS content FROM ${q(message.table)}
        WHERE create_user = 0 AND ${column(message, 'type')} = '3' AND ${column(message, 'title')} NOT LIKE '{%'`,
    );
    for (const row of rows) {
      const stored = formerApprovalMessage(row.title, row.content);
      if (!stored) continue;
      await db.query(`UPDATE ${q(message.table)} SET ${column(message, 'title')} = $1, ${column(message, 'content')} = $2 WHERE id = $3`, [
        storeText(stored.title),
        storeText(stored.content),
        row.id,
      ]);
      changed++;
    }
  }
  return changed;
}
