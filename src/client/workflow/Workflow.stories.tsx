// The workflow pages over the fake flow API (testing/fake-flow.ts): 待签事务 and 待办事务, the handle
// page before the claim, ready to approve, and at the step that may change the remark, the detail
// page, the diagram dialog, and a prefix with no document type. The diagram is drawn by bpmn-js
// with the shipped default process of the material total demand plan.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState, type ReactNode } from 'react';
import xml from '../../../schemas/workflows/materialTotalDemand.bpmn?raw';
import { FakeApi } from '../renderers/displays/FakeApi.tsx';
import { FlowDiagramDialog } from './FlowDiagram.tsx';
import { DetailPage, HandlePage, NotConfigured } from './ProcessPages.tsx';
import { createFakeFlow, type FakeFlowOptions } from './testing/fake-flow.ts';
import { WorkList } from './WorkList.tsx';
import type { WorkKind } from './api.ts';

/** The fake flow, answering model-view with the real default process so bpmn-js draws it. */
function Flow({ options, children }: { options?: FakeFlowOptions; children: (http: ReturnType<typeof createFakeFlow>) => ReactNode }) {
  const [http] = useState(() => {
    const fake = createFakeFlow(options);
    const get = fake.get;
    fake.get = async (url, params) => {
      const answer = await get(url, params);
      return url.endsWith('/process/model-view') ? { ...answer, xml } : answer;
    };
    return fake;
  });
  return <FakeApi http={http}>{children(http)}</FakeApi>;
}

const list = (kind: WorkKind, options?: FakeFlowOptions): StoryObj => ({
  render: () => <Flow options={options}>{() => <WorkList kind={kind} />}</Flow>,
});
const handle = (options?: FakeFlowOptions): StoryObj => ({
  render: () => (
    <Flow options={options}>
      {(http) => (
        <HandlePage
          params={{ prefix: 'materialTotalDemand', taskId: '9001', processInstanceId: '7001', businessId: String(http.document.id) }}
        />
      )}
    </Flow>
  ),
});

const meta: Meta = { title: 'Workflow/Pages' };
export default meta;

export const ToClaim = list('claim');
export const ToDo = list('todo', { claimed: true });
export const Deployments = list('manager');
export const HandleBeforeClaim = handle();
export const HandleReadyToApprove = handle({ claimed: true });
export const HandleWithEditableRemark = handle({ claimed: true, taskDefinitionKey: 'costApprove' });
export const Detail: StoryObj = {
  render: () => (
    <Flow>
      {(http) => <DetailPage params={{ prefix: 'materialTotalDemand', processInstanceId: '7001', businessId: String(http.document.id) }} />}
    </Flow>
  ),
};
export const DiagramDialog: StoryObj = {
  render: () => <Flow>{() => <FlowDiagramDialog processInstanceId="7001" onClose={() => undefined} />}</Flow>,
};
export const PrefixNotConfigured: StoryObj = { render: () => <NotConfigured prefix="laborMonthlySettlement" /> };
