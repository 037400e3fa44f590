// Static checks of an x-compute expression against the fields it reads: numbers where arithmetic
// needs them, dates where a date difference needs them, branches of one type. The linter reports
// what this finds, so that a formula fails at `npm run schemas:check`, not on a user's save.
import type { FieldKind } from '../model/types.ts';
import { childrenOf, operatorOf, type Expr } from './expr.ts';

/** The type of a value: what a field of some kind holds, or what an expression yields. */
export type ValueType = 'number' | 'date' | 'text';

export function typeOfKind(kind: FieldKind): ValueType | null {
  switch (kind) {
    case 'decimal':
    case 'integer':
      return 'number';
    case 'date':
    case 'datetime':
      return 'date';
    case 'json':
      return null;
    default:
      return 'text';
  }
}

export interface TypeCheck {
  /** The expression's type; null when a problem makes it unknown. */
  type: ValueType | null;
  problems: string[];
}

type KindOf = (field: string) => FieldKind | undefined;

/**
 * Types `expr`, reading field kinds through `kindOf` (undefined: an unknown field, reported
 * elsewhere) and, for a detail row's formula, the header's through `headerKindOf` (absent: the
 * formula is the header's own, which has no header to read).
 */
export function checkExpr(expr: Expr, kindOf: KindOf, headerKindOf?: KindOf): TypeCheck {
  const problems: string[] = [];
  const type = visit(expr);
  return { type, problems };

  function expect(e: Expr, wanted: ValueType, what: string): void {
    const got = visit(e);
    if (got !== null && got !== wanted) problems.push(`${what} needs a ${wanted}, ${describe(e)} is a ${got}`);
  }

  function visit(e: Expr): ValueType | null {
    if (typeof e === 'number') return 'number';
    if (typeof e === 'string') {
      const kind = kindOf(e);
      if (kind === undefined) return null;
      const t = typeOfKind(kind);
      if (t === null) problems.push(`"${e}" holds JSON, which an expression cannot read`);
      return t;
    }
    const op = operatorOf(e);
    const children = childrenOf(e);
    switch (op) {
      case 'text':
        return 'text';
      case 'sum':
        return 'number';
      case 'header':
        return headerType((e as { header: string }).header);
      case 'sumBy': {
        const { field } = (e as { sumBy: { field: string } }).sumBy;
        if (!headerKindOf) problems.push(`sumBy sums over a detail's rows: only a detail row's formula can use it`);
        const kind = kindOf(field);
        if (kind !== undefined && typeOfKind(kind) !== 'number') problems.push(`sumBy over "${field}", which is not a number`);
        return 'number';
      }
      case 'addDays': {
        expect(children[0], 'date', 'addDays (its date)');
        expect(children[1], 'number', 'addDays (its days)');
        return 'date';
      }
      case 'days':
      case 'months': {
        children.slice(0, 2).forEach((c) => expect(c, 'date', op));
        if (children[2] !== undefined) expect(children[2], 'text', `${op} (its day rule)`);
        return 'number';
      }
      case 'if':
      case 'coalesce': {
        const types = children.map(visit);
        const known = [...new Set(types.filter((t): t is ValueType => t !== null))];
        if (known.length > 1) problems.push(`${op} mixes ${known.join(' and ')} values`);
        return known.length === 1 && types.every((t) => t !== null) ? known[0] : null;
      }
      default:
        children.forEach((c) => expect(c, 'number', op));
        return 'number';
    }
  }

  function headerType(name: string): ValueType | null {
    if (!headerKindOf) {
      problems.push(`{"header": "${name}"} reads the document's header: only a detail row's formula can`);
      return null;
    }
    const kind = headerKindOf(name);
    if (kind === undefined) {
      problems.push(`expression reads unknown header field "${name}"`);
      return null;
    }
    return typeOfKind(kind);
  }
}

function describe(e: Expr): string {
  if (typeof e === 'string') return `"${e}"`;
  if (typeof e === 'number') return String(e);
  return operatorOf(e);
}
