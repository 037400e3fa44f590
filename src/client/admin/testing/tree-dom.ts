// Reading and clicking antd tree nodes by their title, as a person sees them (in tabbed dialogs,
// on the tab shown).
import { fireEvent, screen } from '@testing-library/react';

const shown = (el: HTMLElement) => {
  const pane = el.closest('[role=tabpanel]');
  return !pane || pane.getAttribute('aria-hidden') !== 'true';
};

function nodeOf(title: string | HTMLElement): HTMLElement {
  const matches = typeof title === 'string' ? screen.getAllByText(title, { selector: '.ant-tree-title' }).filter(shown) : [title];
  if (matches.length !== 1) throw new Error(`${matches.length} tree nodes titled ${String(title)} are shown`);
  const el = matches[0];
  const node = el.closest<HTMLElement>('.ant-tree-treenode');
  if (!node) throw new Error(`no tree node around ${typeof title === 'string' ? title : el.textContent}`);
  return node;
}

export function isChecked(title: string | HTMLElement): boolean {
  return nodeOf(title).querySelector('.ant-tree-checkbox')!.classList.contains('ant-tree-checkbox-checked');
}

export function toggle(title: string | HTMLElement): void {
  fireEvent.click(nodeOf(title).querySelector('.ant-tree-checkbox')!);
}

export function expandNode(title: string | HTMLElement): void {
  const node = nodeOf(title);
  if (node.classList.contains('ant-tree-treenode-switcher-close')) fireEvent.click(node.querySelector('.ant-tree-switcher')!);
}
