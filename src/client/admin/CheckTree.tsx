// A checkbox tree over a grant forest (menus, scope rules, roles), checked by the rules of tree.ts.
import { Empty, Tree } from 'antd';
import { firstLevelKeys, toggleLinked, type CheckMode, type GrantNode } from './tree.ts';

/** How nodes are checked: see tree.ts; "free" checks each node alone (roles). */
export type TreeCheckMode = CheckMode | 'free';

interface CheckTreeProps {
  nodes: GrantNode[];
  checked: string[];
  mode: TreeCheckMode;
  onChange: (checked: string[]) => void;
  /** Open every node (small trees whose leaves are the point: the scope rules). */
  expandAll?: boolean;
  /** What an empty tree says (default: no data). */
  empty?: string;
}

const FIELD_NAMES = { key: 'id', title: 'title', children: 'children' };

export function CheckTree({ nodes, checked, mode, onChange, expandAll = false, empty }: CheckTreeProps) {
  if (!nodes.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  const strict = mode !== 'leaves';
  const onCheck = (keys: unknown, info: { node: { key: unknown }; checked: boolean }) => {
    const key = String(info.node.key);
    if (mode === 'linked') onChange(toggleLinked(nodes, checked, key, info.checked));
    else if (mode === 'free') onChange(info.checked ? [...checked, key] : checked.filter((k) => k !== key));
    else onChange((keys as unknown[]).map(String));
  };
  return (
    <div style={{ maxHeight: '55vh', overflow: 'auto' }}>
      <Tree
        checkable
        selectable={false}
        checkStrictly={strict}
        treeData={nodes as never}
        fieldNames={FIELD_NAMES}
        defaultExpandAll={expandAll}
        defaultExpandedKeys={expandAll ? undefined : firstLevelKeys(nodes)}
        checkedKeys={strict ? { checked, halfChecked: [] } : checked}
        onCheck={onCheck}
      />
    </div>
  );
}
