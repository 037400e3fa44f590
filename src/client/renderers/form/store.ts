// The form's record outside React state: the header (mirrored from rjsf) and the detail rows,
// with the derived values the engine computes. Rows live here, not in rjsf's form data, so that
// a keystroke in one of 500 rows recomputes that row and the totals and notifies only their
// subscribers (the row and the totals), instead of re-rendering the whole form.
import { applyComputed, computeRows, headerForRows } from '../../../engine/compute/apply.ts';
import { termsOnPick } from '../../../engine/inherit/inherit.ts';
import type { DetailModel, EntityModel, FieldModel } from '../../../engine/model/types.ts';
import { settle } from './rules.ts';

export type Row = Record<string, any>;
type Listener = () => void;

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** A detail row or header computed as the server will store it (fields of one level only). */
function computeLevel(
  fields: readonly FieldModel[],
  fieldMap: Readonly<Record<string, FieldModel>>,
  computeOrder: readonly string[],
  row: Row,
): Row {
  const level = { fields, details: [], fieldMap, computeOrder } as unknown as EntityModel;
  try {
    return applyComputed(level, row);
  } catch {
    return row; // a value that is not a number yet: the validator names it
  }
}

/** Rows computed as the server will store them, in their header's context; a value that is not a number yet stays. */
function computeSafely(detail: DetailModel, rows: Row[], header: Row): Row[] {
  try {
    return computeRows(detail, rows, header);
  } catch {
    return rows.map((row) => {
      try {
        return computeRows(detail, [row], header)[0];
      } catch {
        return row; // the validator names it
      }
    });
  }
}

interface DetailState {
  model: DetailModel;
  keys: string[];
  rows: Map<string, Row>;
  /** Per row: the default-mode computed fields (demandQty) still following their formula. */
  auto: Map<string, Set<string>>;
}

function withoutNulls(row: Row): Row {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null));
}

export class FormStore {
  header: Row;
  private readonly details = new Map<string, DetailState>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private computedHeader: Row | null = null;
  /** The header as rows read it ({header} in their formulas). */
  private rowHeader: Row | null = null;
  private seq = 0;
  /** Counts the checks of the whole record (save attempts): the grid shows their messages afresh. */
  checks = 0;

  constructor(
    readonly model: EntityModel,
    initial: Row = {},
  ) {
    const { header, rows } = this.split(initial);
    this.header = header;
    for (const d of model.details) {
      const state: DetailState = { model: d, keys: [], rows: new Map(), auto: new Map() };
      this.details.set(d.name, state);
      for (const row of rows[d.name] ?? []) this.insert(state, row, state.keys.length, true);
      if (d.sumsSiblings) this.recomputeAll(state);
    }
  }

  /** A stored record's empty columns come as null: in the form an empty value is an absent one. */
  private split(record: Row): { header: Row; rows: Record<string, Row[]> } {
    const header: Row = withoutNulls(record);
    const rows: Record<string, Row[]> = {};
    for (const d of this.model.details) {
      rows[d.name] = Array.isArray(record[d.name]) ? (record[d.name] as Row[]).map(withoutNulls) : [];
      delete header[d.name];
    }
    return { header, rows };
  }

  // ---- subscriptions: "row:<detail>:<key>", "rows:<detail>" (added, removed, moved), "totals", "checked" ----

  subscribe(channel: string, listener: Listener): () => void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => set!.delete(listener);
  }

  private emit(...channels: string[]): void {
    for (const c of channels) this.listeners.get(c)?.forEach((l) => l());
  }

  // ---- reads ----

  detail(name: string): DetailModel {
    return this.state(name).model;
  }

  keys(detail: string): readonly string[] {
    return this.state(detail).keys;
  }

  row(detail: string, key: string): Row {
    return this.state(detail).rows.get(key) ?? {};
  }

  rows(detail: string): Row[] {
    const s = this.state(detail);
    return s.keys.map((k) => s.rows.get(k)!);
  }

  /** The header's computed values (totals of the rows), recomputed after a change. */
  totals(): Row {
    if (!this.computedHeader) {
      const m = this.model;
      const record: Row = { ...this.header };
      for (const d of m.details) record[d.name] = this.rows(d.name);
      this.computedHeader = computeLevel(m.fields, m.fieldMap, m.computeOrder, record);
    }
    return this.computedHeader;
  }

  /** The whole record as it is saved: header, rows, every derived value recomputed. */
  record(header: Row = this.header): Row {
    const record: Row = { ...header };
    for (const d of this.model.details) record[d.name] = this.rows(d.name);
    return applyComputed(this.model, record);
  }

  // ---- writes ----

  checked(): void {
    this.checks++;
    this.emit('checked');
  }

  setHeader(header: Row): void {
    const { header: own } = this.split(header);
    const before = this.headerOfRows();
    this.header = own;
    this.computedHeader = null;
    this.rowHeader = null;
    const after = this.headerOfRows();
    // rows whose formulas read a changed header value follow it
    for (const s of this.details.values()) {
      if (s.model.headerReads.some((f) => String(before[f] ?? '') !== String(after[f] ?? ''))) this.recomputeAll(s);
    }
    this.emit('totals');
  }

  /** A typed cell: the row's rules and cascades, then its computed fields. */
  setCell(detail: string, key: string, field: string, value: unknown): void {
    const s = this.state(detail);
    const before = s.rows.get(key) ?? {};
    const auto = s.auto.get(key)!;
    if (s.model.fieldMap[field]?.compute?.mode === 'default') {
      if (blank(value)) auto.add(field);
      else auto.delete(field);
    }
    const after = settle(s.model.fields, before, { ...before, [field]: value }, (row) => ({ ...this.header, ...row }));
    this.update(s, key, after);
  }

  /**
   * A header reference picked: its x-ref.copy fields and the terms it passes on (x-ref.inherit)
   * taken from the referenced record, before the header's formulas run (as the server does).
   */
  pickHeader(field: string, record: Row | null): void {
    const ref = this.model.fieldMap[field];
    const copy = ref?.ref?.copy ?? {};
    if (!ref?.ref || !Object.keys({ ...copy, ...ref.ref.inherit }).length) return;
    const next = { ...this.header, ...termsOnPick(ref, record) };
    for (const [target, source] of Object.entries(copy)) next[target] = record ? record[source] : undefined;
    this.setHeader(next);
  }

  /** A reference picked in a row: x-ref.copy fields taken from the referenced record. */
  pick(detail: string, key: string, field: string, record: Row | null): void {
    const s = this.state(detail);
    const copy = s.model.fieldMap[field]?.ref?.copy ?? {};
    const row = { ...s.rows.get(key) };
    for (const [target, source] of Object.entries(copy)) row[target] = record ? record[source] : undefined;
    this.update(s, key, row);
  }

  addRow(detail: string, at?: number): string {
    const s = this.state(detail);
    const row: Row = {};
    for (const f of s.model.fields) if (!f.system && f.default !== undefined) row[f.name] = f.default;
    const key = this.insert(s, row, at ?? s.keys.length, false);
    this.changedRows(detail);
    return key;
  }

  /** Rows picked from another document's lines, appended at the end with their values computed. */
  appendRows(detail: string, rows: readonly Row[]): void {
    const s = this.state(detail);
    for (const values of rows) {
      const row: Row = {};
      for (const f of s.model.fields) if (!f.system && f.default !== undefined) row[f.name] = f.default;
      this.insert(s, { ...row, ...withoutNulls(values) }, s.keys.length, false);
    }
    this.changedRows(detail);
  }

  /** Rows from the server (x-layout.fill) in place of all of a detail's rows. */
  replaceRows(detail: string, rows: readonly Row[]): void {
    const s = this.state(detail);
    s.keys = [];
    s.rows.clear();
    s.auto.clear();
    this.appendRows(detail, rows);
  }

  /**
   * What a fill route answered: one detail's rows, or a record whose header values (system fields
   * aside) and rows replace the form's. Answers how many rows the form now holds from it.
   */
  fill(answer: Row | readonly Row[], detail?: string): number {
    if (detail) {
      const rows = Array.isArray(answer) ? answer : [];
      this.replaceRows(detail, rows);
      return rows.length;
    }
    const record = answer as Row;
    const values = Object.fromEntries(Object.entries(record).filter(([k]) => this.model.fieldMap[k] && !this.model.fieldMap[k].system));
    this.setHeader({ ...this.header, ...values });
    let count = 0;
    for (const d of this.model.details) {
      const rows = record[d.name];
      if (!Array.isArray(rows)) continue;
      this.replaceRows(d.name, rows);
      count += rows.length;
    }
    return count;
  }

  /** A copy of a row below it, as a new row (no id). */
  copyRow(detail: string, key: string): string {
    const s = this.state(detail);
    const { id: _id, ...rest } = s.rows.get(key) ?? {};
    for (const f of s.model.fields) if (f.system) delete rest[f.name];
    const copy = this.insert(s, rest, s.keys.indexOf(key) + 1, false);
    s.auto.set(copy, new Set(s.auto.get(key)));
    this.update(s, copy, rest);
    this.changedRows(detail);
    return copy;
  }

  removeRows(detail: string, keys: readonly string[]): void {
    const s = this.state(detail);
    s.keys = s.keys.filter((k) => !keys.includes(k));
    for (const k of keys) {
      s.rows.delete(k);
      s.auto.delete(k);
    }
    this.changedRows(detail);
  }

  // ---- internals ----

  private state(name: string): DetailState {
    const s = this.details.get(name);
    if (!s) throw new Error(`no detail ${name} in ${this.model.key}`);
    return s;
  }

  private insert(s: DetailState, row: Row, at: number, loaded: boolean): string {
    const key = `r${++this.seq}`;
    s.keys = [...s.keys.slice(0, at), key, ...s.keys.slice(at)];
    s.auto.set(key, this.autoFields(s.model, row, loaded));
    s.rows.set(key, this.compute(s, key, row));
    return key;
  }

  /** Default-mode computed fields that follow their formula: blank, or (loaded) equal to it. */
  private autoFields(d: DetailModel, row: Row, loaded: boolean): Set<string> {
    const auto = new Set<string>();
    for (const f of d.fields) {
      if (f.compute?.mode !== 'default') continue;
      if (blank(row[f.name])) auto.add(f.name);
      else if (loaded) {
        const { [f.name]: _own, ...rest } = row;
        const formula = computeSafely(d, [rest], this.headerOfRows())[0][f.name];
        if (String(formula) === String(row[f.name])) auto.add(f.name);
      }
    }
    return auto;
  }

  private headerOfRows(): Row {
    if (!this.rowHeader) {
      try {
        this.rowHeader = headerForRows(this.model, this.header);
      } catch {
        this.rowHeader = this.header;
      }
    }
    return this.rowHeader;
  }

  /** A row without the default-mode fields that follow their formula. */
  private inputOf(s: DetailState, key: string, row: Row): Row {
    const input = { ...row };
    for (const name of s.auto.get(key) ?? []) delete input[name];
    return input;
  }

  private compute(s: DetailState, key: string, row: Row): Row {
    return computeSafely(s.model, [this.inputOf(s, key, row)], this.headerOfRows())[0];
  }

  /** Every row of a detail recomputed together (sums over sibling rows, a changed header value). */
  private recomputeAll(s: DetailState): void {
    const rows = computeSafely(
      s.model,
      s.keys.map((k) => this.inputOf(s, k, s.rows.get(k)!)),
      this.headerOfRows(),
    );
    s.keys.forEach((k, i) => s.rows.set(k, rows[i]));
    for (const k of s.keys) this.emit(`row:${s.model.name}:${k}`);
  }

  private update(s: DetailState, key: string, row: Row): void {
    s.rows.set(key, this.compute(s, key, row));
    this.computedHeader = null;
    if (s.model.sumsSiblings) this.recomputeAll(s);
    this.emit(`row:${s.model.name}:${key}`, 'totals');
  }

  private changedRows(detail: string): void {
    const s = this.state(detail);
    if (s.model.sumsSiblings) this.recomputeAll(s);
    this.computedHeader = null;
    this.emit(`rows:${detail}`, 'totals');
  }
}
