// @vitest-environment happy-dom
// Every document type with x-workflow gets 提交 / 撤回 / 流程图 on its rows; the others get nothing.
import { describe, expect, it } from 'vitest';
import { zh } from '../i18n/messages.ts';
import { catalog } from '../renderers/catalog.ts';
import { workflowActions } from './register.ts';

describe('workflow row actions', () => {
  it('are given to the workflow documents only', () => {
    const actions = workflowActions(catalog());
    const withWorkflow = Object.values(catalog().entities).filter((m) => m.workflow);
    expect(withWorkflow.length).toBeGreaterThan(0);
    for (const model of withWorkflow) {
      expect(actions[model.key].rowActions?.map((a) => zh[a.label])).toEqual(['提交', '撤回', '流程图']);
    }
    expect(Object.keys(actions)).toHaveLength(withWorkflow.length);
    expect(actions.param).toBeUndefined();
  });
});
