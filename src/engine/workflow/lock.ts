// Documents under approval are locked: approving ones until the process ends or is recalled,
// approved ones for good. The server refuses their update and removal; the list says so up front.
import type { EntityModel } from '../model/types.ts';
import type { WorkflowMessage } from './messages.ts';

const LOCKED = { approving: 'approvingLocked', approved: 'approvedLocked' } as const;

/** Why this record may be neither changed nor removed, or undefined when it may. */
export function approvalLock(model: EntityModel, row: Record<string, unknown>): WorkflowMessage | undefined {
  if (!model.workflow) return undefined;
  const key = LOCKED[String(row[model.workflow.statusField] ?? '') as keyof typeof LOCKED];
  return key ? { key, params: { entity: model.label } } : undefined;
}
