// Markdown helpers for the benchmark report.

export function table(header: string[], rows: (string | number)[][], align?: ('l' | 'r')[]): string {
  const sep = header.map((_, i) => ((align?.[i] ?? 'l') === 'r' ? '---:' : '---'));
  const line = (cells: (string | number)[]) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(sep), ...rows.map(line)].join('\n');
}

export const ms = (v: number | undefined, digits = 1) => (v === undefined || Number.isNaN(v) ? '—' : v.toFixed(digits));
export const int = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '—' : Math.round(v).toLocaleString('en-US'));
export const mib = (v: number | undefined) => (v === undefined ? '—' : `${v.toFixed(0)} MiB`);
export const pct = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '—' : `${(v * 100).toFixed(0)}%`);

export function median(values: number[]): number | undefined {
  if (!values.length) return undefined;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export class Report {
  private readonly parts: string[] = [];
  h(level: number, text: string) {
    this.parts.push(`${'#'.repeat(level)} ${text}`);
  }
  p(text: string) {
    this.parts.push(text);
  }
  toString() {
    return this.parts.join('\n\n') + '\n';
  }
}
