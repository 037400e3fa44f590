// Start-up migration: texts written before they were stored as a key and parameters
// (i18n/stored-text.ts) held both languages in one field: an approval notice a Chinese title and
// "中文\nEnglish" content. Each such value becomes the key and parameters it was rendered from where
// a catalog template reads back both halves exactly. A value already stored, or typed by a person,
// is left alone, so a second run changes nothing. A module migrates its own texts the same way
// (ServerModule.migrate; the warnings': packs/cost/server/warning/former-texts.ts).
import { renderStored, storedTextCatalogs, storeText, textRef, type StoredText } from '../../engine/i18n/stored-text.ts';
import type { EntityCatalog } from '../../engine/model/types.ts';
import type { Queryable } from '../db/db.ts';
import { fieldColumn, q } from '../db/sql.ts';

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
  for (const [prefix, catalog] of Object.entries(storedTextCatalogs())) {
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

/** A workflow notice's Chinese title and "中文\nEnglish" content as stored texts (its key family's). */
export function formerWorkflowNotice(title: string, content: string): { title: StoredText; content: StoredText } | undefined {
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

/** The system messages of one database written as `former` reads them: returns how many changed. */
export async function storeFormerMessages(
  db: Queryable,
  catalog: EntityCatalog,
  former: (title: string, content: string) => { title: StoredText; content: StoredText } | undefined,
): Promise<number> {
  let changed = 0;
  const message = catalog.entities.message;
  if (!message || !('content' in message.fieldMap)) return 0;
  const rows = await db.query<{ id: string; title: string; content: string }>(
    `SELECT id::text AS id, ${fieldColumn(message, 'title')} AS title, ${fieldColumn(message, 'content')} AS content FROM ${q(message.table)}
      WHERE create_user = 0 AND ${fieldColumn(message, 'type')} = '3' AND ${fieldColumn(message, 'title')} NOT LIKE '{%'`,
  );
  for (const row of rows) {
    const stored = former(row.title, row.content);
    if (!stored) continue;
    await db.query(
      `UPDATE ${q(message.table)} SET ${fieldColumn(message, 'title')} = $1, ${fieldColumn(message, 'content')} = $2 WHERE id = $3`,
      [storeText(stored.title), storeText(stored.content), row.id],
    );
    changed++;
  }
  return changed;
}

/** Migrates the approval notices among the system messages of one database; returns how many rows changed. */
export function storeFormerTexts(db: Queryable, catalog: EntityCatalog): Promise<number> {
  return storeFormerMessages(db, catalog, formerWorkflowNotice);
}
