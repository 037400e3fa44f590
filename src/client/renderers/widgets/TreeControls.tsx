// Tree pickers. treeSelect: one node of a tree entity (a parent dictionary, department, menu),
// loaded a level at a time from the entity's lazy-tree route under a "top level" root.
// treeMultiSelect: checked nodes of a whole tree (a user's departments, a tenant package's menus)
// from x-ui.options.url or the entity's tree route, kept as a comma-joined string of ids: exactly
// the nodes checked, or with x-ui.options.cascade what lies under and above a checked node too.
import { useQuery } from '@tanstack/react-query';
import { TreeSelect } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import { useReferenceLabels } from '../data.ts';
import { useHttp } from '../http-context.tsx';
import { placeholderOf } from './placeholder.ts';
import type { ControlProps, Row } from './types.ts';

interface FlatNode {
  id: string;
  pId: string | null;
  value: string;
  title: string;
  isLeaf?: boolean;
  disabled?: boolean;
}

const TREE = { id: 'id', pId: 'pId' } as const;

/** Nested ({children}) or flat ({parentId}) nodes as antd's simple-mode list. */
export function flattenTree(
  nodes: readonly Row[],
  keys: { value?: string; label?: string } = {},
  parent: string | null = null,
): FlatNode[] {
  const out: FlatNode[] = [];
  for (const n of nodes) {
    const value = String(n[keys.value ?? 'value'] ?? n.value ?? n.id);
    const title = String(n[keys.label ?? 'title'] ?? n.title ?? n.name ?? value);
    out.push({ id: value, pId: parent ?? (n.parentId === undefined ? null : String(n.parentId)), value, title });
    if (Array.isArray(n.children)) out.push(...flattenTree(n.children, keys, value));
  }
  return out;
}

function treeTarget(entity: string): EntityModel {
  return catalog().entities[entity];
}

export function TreeSelectControl({ field, value, onChange, onBlur, id, readOnly, invalid, compact, values }: ControlProps) {
  const http = useHttp();
  const t = useT();
  const lang = useAtomValue(langAtom);
  const target = treeTarget(field.ref!.entity);
  const tree = target.tree!;
  // the record itself cannot be its own parent (its key: an id, or a region's code)
  const selfKey = values?.[tree.keyField];
  const self = selfKey === undefined || selfKey === null ? undefined : String(selfKey);
  const [nodes, setNodes] = useState<FlatNode[]>([{ id: tree.root, pId: null, value: tree.root, title: t('widget.topLevel') }]);
  const current = value === undefined || value === null || value === '' ? undefined : String(value);
  const { data: labels } = useReferenceLabels(target.key, current && current !== tree.root ? [current] : [], field.ref!.valueField);
  const label =
    current === tree.root
      ? t('widget.topLevel')
      : current && (nodes.find((n) => n.value === current)?.title ?? labels?.[current] ?? current);

  const loadChildren = async (parent: string) => {
    const children = await http.get<Row[]>(`${target.api}/lazy-tree`, { [tree.lazyParam]: parent });
    const fresh = children.map((c) => ({
      id: String(c.value ?? c.key),
      pId: parent,
      value: String(c.value ?? c.key),
      title: String(c.title),
      isLeaf: !c.hasChildren,
      disabled: String(c.value ?? c.key) === self,
    }));
    setNodes((old) => [...old.filter((n) => !fresh.some((f) => f.id === n.id)), ...fresh]);
  };

  // a search looks through the whole tree, read once when the first words are typed (levels not
  // yet opened would hide what is searched for)
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<(string | number)[]>([]);
  const { data: whole } = useQuery({
    queryKey: ['tree', target.key, 'all'],
    enabled: search !== '',
    staleTime: 60_000,
    queryFn: () => http.get<Row[]>(`${target.api}/tree`),
  });
  const shown = whole
    ? [nodes[0], ...flattenTree(whole).map((n) => ({ ...n, pId: n.pId ?? tree.root, disabled: n.value === self }))]
    : nodes;

  return (
    <TreeSelect
      id={id}
      treeDataSimpleMode={TREE}
      treeData={shown}
      loadData={whole ? undefined : (node) => loadChildren(String(node.value))}
      showSearch={{ treeNodeFilterProp: 'title', searchValue: search, onSearch: setSearch }}
      // what a search finds is shown opened, wherever it lies
      treeExpandedKeys={whole && search ? shown.map((n) => n.id) : expanded}
      onTreeExpand={setExpanded}
      labelInValue
      value={current ? { value: current, label } : undefined}
      onChange={(picked: { value: string; label?: unknown } | undefined) => onChange(picked?.value ?? undefined)}
      onBlur={onBlur}
      disabled={readOnly}
      allowClear={!readOnly}
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
      variant={compact ? 'borderless' : undefined}
      size={compact ? 'small' : undefined}
      style={{ width: '100%' }}
    />
  );
}

/** Where the whole tree comes from: x-ui.options.url, else the referenced entity's tree route. */
function treeSource(options: Row, entity: string | undefined): string {
  if (typeof options.url === 'string') return options.url;
  return `${catalog().entities[entity!].api}/tree`;
}

/**
 * The checked ids after one node is checked or unchecked in a cascading picker (x-ui.options.cascade:
 * a package's menus). Checking a node checks what lies under it
 * and the nodes above it (a page is reachable only through its menu); unchecking a node unchecks
 * what lies under it. Otherwise the stored ids are shown exactly as they are.
 */
export function toggleChecked(nodes: readonly FlatNode[], checked: readonly string[], node: string, on: boolean): string[] {
  const children = new Map<string, string[]>();
  const parent = new Map<string, string | null>();
  for (const n of nodes) {
    parent.set(n.id, n.pId);
    if (n.pId !== null) children.set(n.pId, [...(children.get(n.pId) ?? []), n.id]);
  }
  const below = (id: string): string[] => (children.get(id) ?? []).flatMap((c) => [c, ...below(c)]);
  const next = new Set(checked);
  if (on) {
    for (const id of [node, ...below(node)]) next.add(id);
    for (let p = parent.get(node); p !== undefined && p !== null && parent.has(p); p = parent.get(p)) next.add(p);
  } else {
    for (const id of [node, ...below(node)]) next.delete(id);
  }
  const order = new Map(nodes.map((n, i) => [n.id, i]));
  return [...next].sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity));
}

/**
 * What a checked node's tag reads: its title, or where other nodes of the tree share that title (a
 * 新增 button under every page of a package's menus) its parent's title before it, 项目信息 · 新增.
 */
export function tagLabels(nodes: readonly FlatNode[]): Map<string, string> {
  const shared = new Map<string, number>();
  for (const n of nodes) shared.set(n.title, (shared.get(n.title) ?? 0) + 1);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return new Map(
    nodes.map((n) => {
      const parent = n.pId === null ? undefined : byId.get(n.pId);
      return [n.id, parent && shared.get(n.title)! > 1 ? `${parent.title} · ${n.title}` : n.title];
    }),
  );
}

export function TreeMultiSelectControl({ field, value, onChange, onBlur, id, readOnly, invalid }: ControlProps) {
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const options = (field.ui?.options ?? {}) as Row;
  const separator: string = options.separator ?? field.ref?.separator ?? ',';
  // a user's departments and roles are exactly the ones picked (a parent would widen the data
  // scope and the grants); a package's menus (x-ui.options.cascade) bring what they sit under
  const cascade = options.cascade === true;
  const url = treeSource(options, field.ref?.entity);
  const { data, isLoading } = useQuery({
    queryKey: ['tree', field.ref?.entity ?? url, url],
    staleTime: 60_000,
    queryFn: async () => flattenTree(await http.get<Row[]>(url), { value: options.valueField, label: options.labelField }),
  });
  const nodes = data ?? [];
  const picked = Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(separator) : [];
  const titles = useMemo(() => tagLabels(nodes), [nodes]);
  return (
    <TreeSelect
      id={id}
      treeDataSimpleMode={TREE}
      treeData={nodes}
      loading={isLoading}
      treeCheckable
      treeCheckStrictly
      // the tags read the labels given with the value (tagLabels), not the nodes' bare titles
      labelInValue
      maxTagCount="responsive"
      // the tags that do not fit are named on hover, as their tags would name them
      maxTagPlaceholder={(omitted) => (
        <span title={omitted.map((o) => String(o.label ?? o.value)).join(lang === 'zh' ? '、' : ', ')}>+ {omitted.length} ...</span>
      )}
      showSearch={{ treeNodeFilterProp: 'title' }}
      value={picked.map((v) => ({ value: v, label: titles.get(v) ?? v }))}
      onChange={(next: { value: string }[], _labels, extra) => {
        const trigger = extra?.triggerValue === undefined ? undefined : String(extra.triggerValue);
        const ids =
          !cascade || trigger === undefined || extra?.checked === undefined
            ? next.map((n) => n.value)
            : toggleChecked(nodes, picked, trigger, Boolean(extra.checked));
        onChange(ids.length ? ids.join(separator) : undefined);
      }}
      onBlur={onBlur}
      disabled={readOnly}
      allowClear={!readOnly}
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
      style={{ width: '100%' }}
    />
  );
}
