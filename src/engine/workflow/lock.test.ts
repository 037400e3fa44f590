import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { approvalLock } from './lock.ts';
import { renderWorkflowMessage } from './messages.ts';

const { catalog } = compiledSchemaSet();
const withWorkflow = Object.values(catalog.entities).find((m) => m.workflow)!;
const without = Object.values(catalog.entities).find((m) => !m.workflow)!;
const status = (value: string) => ({ [withWorkflow.workflow!.statusField]: value });

describe('approvalLock', () => {
  it('locks approving and approved documents with the words the server refuses them with', () => {
    expect(renderWorkflowMessage(approvalLock(withWorkflow, status('approving'))!, 'zh')).toBe(
      `${withWorkflow.label.zh}正在审批中,不能修改、删除或重复提交`,
    );
    expect(renderWorkflowMessage(approvalLock(withWorkflow, status('approved'))!, 'en')).toMatch(
      /is approved and can no longer be changed or deleted$/,
    );
  });

  it('leaves drafts, rejected and recalled documents, and documents without a workflow, open', () => {
    for (const value of ['draft', 'rejected', 'withdrawn', 'terminated', ''])
      expect(approvalLock(withWorkflow, status(value))).toBeUndefined();
    expect(approvalLock(without, { approvalStatus: 'approved' })).toBeUndefined();
  });
});
