// 模型设计 in Storybook over a small in-memory model API: the models list, the designer drawing the
// shipped material total demand approval with bpmn-js's Modeler, a model the engine's check refuses
// (a task nobody handles: listed, 部署 disabled), a deploy refusal, the process properties, and the
// properties panel alone for a user task, a gateway's flow with a broken condition, and a
// countersign task.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import xml from '../../../../schemas/workflows/materialTotalDemand.bpmn?raw';
import { ApiError } from '../../api/http.ts';
import { FakeApi } from '../../renderers/displays/FakeApi.tsx';
import type { RendererHttp } from '../../renderers/http-context.tsx';
import type { ElementInfo } from './bpmn-props.ts';
import { ModelDesigner, ProcessPanel, type ProcessProps } from './ModelDesigner.tsx';
import ModelPage from './ModelPage.tsx';
import { PropertiesPanel } from './PropertiesPanel.tsx';

const USERS = [
  { value: '1123598821738675201', label: '王晓明' },
  { value: '1123598821738675202', label: '赵敏' },
];
const ROLES = [
  { value: 'project_manager', label: '项目经理 (project_manager)' },
  { value: 'cost_manager', label: '成本经理 (cost_manager)' },
];

function modelApi(refuseDeploy: boolean): RendererHttp {
  const model = {
    id: '501',
    name: '材料总需用计划审批',
    modelKey: 'materialTotalDemand',
    version: 3,
    lastUpdated: '2026-11-22 10:00:00',
    modelEditorXml: xml,
  };
  return {
    get: async (url: string): Promise<any> => {
      if (url.endsWith('/model/list')) return { records: [model], total: 1, size: 10, current: 1 };
      if (url.endsWith('/model/detail')) return model;
      if (url.endsWith('/manager/list'))
        return {
          records: [{ id: 'materialTotalDemand:1:1', name: '材料总需用计划审批', key: 'materialTotalDemand', version: 1 }],
          total: 1,
          size: 200,
          current: 1,
        };
      if (url.endsWith('/process/model-view')) return { xml, flow: [] };
      if (url.endsWith('/user/options')) return { records: USERS };
      if (url.endsWith('/role/list')) return ROLES.map((r) => ({ roleAlias: r.value, roleName: r.label.split(' ')[0] }));
      if (url.endsWith('/dict/dictionary'))
        return [
          { dictKey: 'materialTotalDemand', dictValue: '材料总需用计划' },
          { dictKey: 'materialCheck', dictValue: '材料验收' },
        ];
      throw new ApiError(404, 'not found', null);
    },
    post: async (url: string, body?: any): Promise<any> => {
      if (url.endsWith('/model/submit')) return { ...model, ...body, id: '501' };
      if (url.endsWith('/model/deploy') && refuseDeploy)
        throw new ApiError(400, '流程模型不能部署:\n不支持的流程元素 脚本任务 "算价" (calc)', null);
      return null;
    },
    blob: async () => ({ blob: new Blob(), filename: '' }),
  } as RendererHttp;
}

function Api({ refuseDeploy = false, children }: { refuseDeploy?: boolean; children: React.ReactNode }) {
  const [http] = useState(() => modelApi(refuseDeploy));
  return <FakeApi http={http}>{children}</FakeApi>;
}

const base: ElementInfo = {
  id: 'pmApprove',
  type: 'bpmn:UserTask',
  kind: 'userTask',
  name: '项目经理审批',
  assignee: '',
  candidateUsers: [],
  candidateGroups: ['project_manager'],
  multi: null,
  condition: '',
  fromExclusive: false,
  isDefault: false,
  gatewayId: '',
};
const panel = (info: ElementInfo): StoryObj => ({
  render: () => (
    <Api>
      <div style={{ width: 320 }}>
        <PropertiesPanel info={info} users={USERS} roles={ROLES} onWrite={(w) => console.info('writes', w)} />
      </div>
    </Api>
  ),
});

const meta: Meta = { title: 'Workflow/Designer' };
export default meta;

export const Models: StoryObj = {
  render: () => (
    <Api>
      <ModelPage />
    </Api>
  ),
};
export const Designer: StoryObj = {
  render: () => (
    <Api>
      <ModelDesigner model={{ id: '501', name: '材料总需用计划审批', modelKey: 'materialTotalDemand', xml }} onClose={() => undefined} />
    </Api>
  ),
};
export const DeployRefused: StoryObj = {
  render: () => (
    <Api refuseDeploy>
      <ModelPage />
    </Api>
  ),
};
export const PanelUserTask = panel(base);
export const PanelConditionBroken = panel({
  ...base,
  id: 'toCost',
  type: 'bpmn:SequenceFlow',
  kind: 'sequenceFlow',
  name: '金额超过阈值',
  candidateGroups: [],
  condition: '${amount >}',
  fromExclusive: true,
  gatewayId: 'amountGateway',
});
export const PanelCountersign = panel({
  ...base,
  name: '会签',
  assignee: '${assignee}',
  candidateGroups: [],
  multi: { sequential: false, collection: '${signers}', elementVariable: 'assignee', completion: '${nrOfCompletedInstances >= 2}' },
});
export const CheckProblems: StoryObj = {
  render: () => (
    <Api>
      <ModelDesigner
        model={{
          name: '材料总需用计划审批',
          modelKey: 'materialTotalDemand',
          xml: xml.replace(/ flowable:candidateGroups="project_manager"/, ''),
        }}
        onClose={() => undefined}
      />
    </Api>
  ),
};

function ProcessPanelStory() {
  const [value, setValue] = useState<ProcessProps>({
    name: '材料总需用计划审批',
    modelKey: 'materialTotalDemand',
    category: 'flow_materialTotalDemand',
    description: '项目经理审批,金额超过阈值时成本经理审批',
  });
  return (
    <div style={{ width: 320 }}>
      <ProcessPanel value={value} onChange={setValue} />
    </div>
  );
}
export const PanelProcess: StoryObj = {
  render: () => (
    <Api>
      <ProcessPanelStory />
    </Api>
  ),
};
