// The data of a grant dialog: the trees offered (grant-tree, grant-top-tree), the keys already
// granted (role-tree-keys, top-tree-keys), and what the person checks. Until a tree is touched its
// checks are the granted keys found in it; a save sends keysToSend of each tree.
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useHttp } from '../renderers/http-context.tsx';
import { langAtom } from '../state/session.ts';
import { keysInTree, keysToSend, leafKeys, type CheckMode, type GrantNode } from './tree.ts';

interface GrantSource<K extends string> {
  /** Names the dialog in the query cache. */
  name: string;
  treeUrl: string;
  keysUrl: string;
  keysParams: Record<string, string>;
  modes: Record<K, CheckMode>;
}

export function useGrant<K extends string>({ name, treeUrl, keysUrl, keysParams, modes }: GrantSource<K>) {
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  // gcTime 0: a dialog opened again asks again (another administrator may have changed the grants)
  const trees = useQuery({
    queryKey: ['admin-grant', name, 'tree', lang],
    queryFn: () => http.get<Record<K, GrantNode[]>>(treeUrl),
    gcTime: 0,
  });
  const granted = useQuery({
    queryKey: ['admin-grant', name, 'keys', keysParams],
    queryFn: () => http.get<Record<K, string[]>>(keysUrl, keysParams),
    gcTime: 0,
  });
  const [edited, setEdited] = useState<Partial<Record<K, string[]>>>({});

  const nodes = (kind: K): GrantNode[] => trees.data?.[kind] ?? [];
  const checked = (kind: K): string[] => {
    if (edited[kind]) return edited[kind]!;
    const keys = granted.data?.[kind] ?? [];
    return modes[kind] === 'linked' ? keysInTree(nodes(kind), keys) : leafKeys(nodes(kind), keys);
  };
  return {
    ready: trees.isSuccess && granted.isSuccess,
    loading: trees.isLoading || granted.isLoading,
    error: (trees.error ?? granted.error) as Error | null,
    nodes,
    checked,
    setChecked: (kind: K, keys: string[]) => setEdited((e) => ({ ...e, [kind]: keys })),
    toSend: (kind: K) => keysToSend(nodes(kind), checked(kind), modes[kind]),
  };
}
