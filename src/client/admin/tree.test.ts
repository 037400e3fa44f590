// The check rules of the grant trees.
import { describe, expect, it } from 'vitest';
import { forest } from '../../engine/tree/forest.ts';
import { keysInTree, keysToSend, leafKeys, toggleLinked, type GrantNode } from './tree.ts';

// 1 系统管理 ─ 2 用户管理 ─ 3 新增, 4 密码重置; 1 ─ 5 参数管理; 6 基础资料
const tree: GrantNode[] = forest(
  [
    ['1', '0'],
    ['2', '1'],
    ['3', '2'],
    ['4', '2'],
    ['5', '1'],
    ['6', '0'],
  ].map(([id, parentId]) => ({ id, parentId, title: id })),
);

const sorted = (keys: string[]) => [...keys].sort();

describe('grant tree rules', () => {
  it('checking a node checks its ancestors and descendants', () => {
    expect(sorted(toggleLinked(tree, [], '4', true))).toEqual(['1', '2', '4']);
    expect(sorted(toggleLinked(tree, [], '2', true))).toEqual(['1', '2', '3', '4']);
  });

  it('unchecking a node unchecks its descendants and keeps its ancestors', () => {
    expect(sorted(toggleLinked(tree, ['1', '2', '3', '4', '5'], '2', false))).toEqual(['1', '5']);
  });

  it('a menu may stay checked without its buttons', () => {
    expect(sorted(toggleLinked(tree, ['1', '2', '3'], '3', false))).toEqual(['1', '2']);
    expect(sorted(keysToSend(tree, ['1', '2'], 'linked'))).toEqual(['1', '2']);
  });

  it('keys the tree does not hold are dropped; leaves mode sends only leaves', () => {
    expect(keysInTree(tree, ['2', '99', '2'])).toEqual(['2']);
    expect(sorted(leafKeys(tree, ['1', '2', '3', '5']))).toEqual(['3', '5']);
    expect(sorted(keysToSend(tree, ['2', '3', '4', '6'], 'leaves'))).toEqual(['3', '4', '6']);
  });
});
