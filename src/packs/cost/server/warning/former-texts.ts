// Start-up migration of the warnings' texts (ServerModule.migrate), as server/seed/former-texts.ts
// does for approval notices: a warning record written before texts were stored as a key and
// parameters held "中文 / English", and a warnings message Chinese lines, a blank line, the English
// title and the English lines. Each becomes the key and parameters it was rendered from where a
// template reads back both halves exactly, else its two halves as a {zh, en} pair. Records written
// before the base was stored get it. A second run changes nothing.
import { fill } from '../../../../engine/i18n/messages.ts';
import { parseStoredText, storeText, textRef, type StoredText } from '../../../../engine/i18n/stored-text.ts';
import { optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import type { EntityCatalog, EntityModel } from '../../../../engine/model/types.ts';
import type { Queryable } from '../../../../server/db/db.ts';
import { fieldColumn, q } from '../../../../server/db/sql.ts';
import { readTemplate, recognize, storeFormerMessages } from '../../../../server/seed/former-texts.ts';
import { THRESHOLD_IS_BASE } from '../../engine/warnings/rules.ts';
import { WARNING_TEXTS } from '../../engine/warnings/texts.ts';

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

/** A warnings message's Chinese title and its content (Chinese lines, a blank line, the English title and lines). */
export function formerWarningsMessage(title: string, content: string): { title: StoredText; content: StoredText } | undefined {
  const blank = content.indexOf('\n\n');
  if (blank < 0) return undefined;
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

/**
 * Warnings recorded before their base was stored: the base is the threshold where the rule measures
 * against it, else none; the ratio (actual ÷ base) is computed again, empty without a base.
 */
async function baseOfFormerWarnings(db: Queryable, tip: EntityModel): Promise<number> {
  if (!tip.fieldMap.baseValue || !tip.fieldMap.ratio) return 0;
  const [base, ratio, actual] = ['baseValue', 'ratio', 'actualValue'].map((f) => fieldColumn(tip, f));
  const rows = await db.query(
    `UPDATE ${q(tip.table)} SET ${base} = CASE WHEN ${fieldColumn(tip, 'warnType')} = ANY($1::text[]) THEN ${fieldColumn(tip, 'thresholdValue')} END,
            ${ratio} = CASE WHEN ${fieldColumn(tip, 'warnType')} = ANY($1::text[]) AND ${fieldColumn(tip, 'thresholdValue')} > 0
                            THEN round(coalesce(${actual}, 0) / ${fieldColumn(tip, 'thresholdValue')} * 100, 2) END
      WHERE ${base} IS NULL AND (${ratio} IS NOT NULL OR (${fieldColumn(tip, 'warnType')} = ANY($1::text[]) AND ${fieldColumn(tip, 'thresholdValue')} IS NOT NULL))
      RETURNING id`,
    [THRESHOLD_IS_BASE],
  );
  return rows.length;
}

/** Migrates the warning records and warnings messages of one database; returns how many rows changed. */
export async function migrateFormerWarnings(db: Queryable, catalog: EntityCatalog): Promise<number> {
  let changed = 0;
  const tip = optionalEntityWithRole(catalog, 'warning.record');
  if (tip) {
    changed += await baseOfFormerWarnings(db, tip);
    const text = fieldColumn(tip, 'message');
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
  return changed + (await storeFormerMessages(db, catalog, formerWarningsMessage));
}
