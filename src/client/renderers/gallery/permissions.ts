// The button permissions of a few typical users over every entity, for Storybook's role switch.
import { catalog } from '../catalog.ts';

export type StoryRole = 'administrator' | 'clerk' | 'viewer';

const ACTIONS: Record<StoryRole, readonly string[]> = {
  administrator: ['add', 'edit', 'delete', 'view', 'export'],
  clerk: ['add', 'edit', 'view'],
  viewer: ['view'],
};

export function buttonsOf(role: StoryRole): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const model of Object.values(catalog().entities)) {
    const code = model.menu?.code ?? model.key;
    for (const action of ACTIONS[role]) out[`${code}_${action}`] = true;
  }
  return out;
}
