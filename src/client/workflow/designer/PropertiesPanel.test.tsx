// @vitest-environment happy-dom
// The designer's properties panel over a real BPMN model (the shipped material total demand
// approval, parsed with bpmn-moddle — bpmn-js itself stays out of happy-dom): what a person's edits
// write into the XML for each element type, checked by compiling the result with the engine, and
// the live condition check in Chinese and English.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { BpmnModdle } from 'bpmn-moddle';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileDefinition } from '../../../engine/workflow/definition.ts';
import { renderWithApi } from '../../renderers/testing/providers.tsx';
import { applyWrites, FLOWABLE_MODDLE, newModelXml, readElement, type BusinessObject, type WriteTarget } from './bpmn-props.ts';
import { PropertiesPanel } from './PropertiesPanel.tsx';

afterEach(cleanup);

const SHIPPED = readFileSync(join(process.cwd(), 'schemas/workflows/materialTotalDemand.bpmn'), 'utf8');
const USERS = [
  { value: '1123598821738675201', label: '王晓明' },
  { value: '1123598821738675202', label: '赵敏' },
];
const ROLES = [
  { value: 'project_manager', label: '项目经理 (project_manager)' },
  { value: 'cost_manager', label: '成本经理 (cost_manager)' },
];
const noHttp = { get: async () => ({}), post: async () => ({}), blob: async () => new Blob() } as any;

/** A model loaded the way the designer holds it, with the panel's writes landing in its moddle tree. */
async function loadModel(xml = SHIPPED) {
  const moddle = new BpmnModdle({ flowable: FLOWABLE_MODDLE }) as any;
  const { rootElement, elementsById } = await moddle.fromXML(xml);
  const target: WriteTarget = {
    element: (id) => elementsById[id] as BusinessObject,
    update: (id, props) => {
      for (const [k, v] of Object.entries(props)) elementsById[id].set(k, v);
    },
    create: (type, attrs) => moddle.create(type, attrs),
  };
  return {
    info: (id: string) => readElement(elementsById[id] as BusinessObject),
    xml: async () => (await moddle.toXML(rootElement, { format: true })).xml as string,
    panel: (id: string, lang: 'zh' | 'en' = 'zh') =>
      renderWithApi(
        <PropertiesPanel
          key={id}
          info={readElement(elementsById[id])}
          users={USERS}
          roles={ROLES}
          onWrite={(w) => applyWrites(target, w)}
        />,
        { http: noHttp, lang },
      ),
  };
}

async function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  await waitFor(() => expect([...document.querySelectorAll('.ant-select-item-option')].some((o) => o.textContent === option)).toBe(true));
  fireEvent.click([...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === option)!);
}

describe('properties panel', () => {
  it('a user task: renaming it and choosing another candidate role and a user are written as Flowable attributes the engine reads', async () => {
    const model = await loadModel();
    model.panel('pmApprove');
    expect(screen.getByText(/用户任务/)).toBeTruthy();
    expect((screen.getByLabelText('名称') as HTMLInputElement).value).toBe('项目经理审批');
    expect(document.body.textContent).toContain('项目经理 (project_manager)');

    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '成本经理初审' } });
    // replace project_manager by cost_manager: remove the tag, then pick the role
    fireEvent.click(
      document.querySelector('.ant-select-selection-item-remove, .ant-select-selection-item [aria-label="close"]')!.closest('span')!,
    );
    await waitFor(() => expect(model.info('pmApprove').candidateGroups).toEqual([]));
    await pick('候选角色', '成本经理 (cost_manager)');
    await pick('候选人员', '赵敏');

    const xml = await model.xml();
    expect(xml).toContain('name="成本经理初审"');
    expect(xml).toContain('flowable:candidateGroups="cost_manager"');
    expect(xml).toContain('flowable:candidateUsers="1123598821738675202"');
    const graph = await compileDefinition(xml);
    expect(graph.nodes.pmApprove.name).toBe('成本经理初审');
    expect(graph.nodes.pmApprove.candidateGroups).toEqual({ parts: ['cost_manager'] });
  });

  it('a user task by expression: ${applyUser} as assignee; a broken expression is shown and not written', async () => {
    const model = await loadModel();
    model.panel('pmApprove');
    fireEvent.click(screen.getByText('表达式'));
    fireEvent.change(screen.getByLabelText('办理人'), { target: { value: '${applyUser' } });
    expect(await screen.findByText(/表达式有误/)).toBeTruthy();
    expect(model.info('pmApprove').assignee).toBe('');
    fireEvent.change(screen.getByLabelText('办理人'), { target: { value: '${applyUser}' } });
    await waitFor(() => expect(screen.queryByText(/表达式有误/)).toBeNull());
    expect(model.info('pmApprove').assignee).toBe('${applyUser}');
    const graph = await compileDefinition(await model.xml());
    expect(graph.nodes.pmApprove.assignee?.parts).toHaveLength(1);
  });

  it('a flow out of the exclusive gateway: the condition is checked live (zh) and written; 默认流转 moves the default and drops the condition', async () => {
    const model = await loadModel();
    model.panel('toCost');
    const condition = screen.getByLabelText('条件表达式') as HTMLTextAreaElement;
    expect(condition.value).toBe('${amount > amountThreshold}');
    fireEvent.change(condition, { target: { value: '${amount >}' } });
    expect(await screen.findByText(/表达式有误/)).toBeTruthy();
    expect(model.info('toCost').condition).toBe('${amount > amountThreshold}');
    fireEvent.change(condition, { target: { value: 'amount > 1' } });
    expect(await screen.findByText('条件须写成 ${…} 表达式')).toBeTruthy();
    fireEvent.change(condition, { target: { value: '${amount >= 200000}' } });
    await waitFor(() => expect(model.info('toCost').condition).toBe('${amount >= 200000}'));
    expect(await model.xml()).toContain('<conditionExpression xsi:type="tFormalExpression">${amount &gt;= 200000}</conditionExpression>');
    expect((await compileDefinition(await model.xml())).flows.toCost.condition?.parts).toHaveLength(1);
    cleanup();

    // the other flow becomes the default: the gateway points at it
    model.panel('toCost');
    fireEvent.click(screen.getByLabelText(/默认流转/));
    await waitFor(() => expect(model.info('toCost').isDefault).toBe(true));
    expect(model.info('toCost').condition).toBe('');
    expect(model.info('toEnd').isDefault).toBe(false);
    expect(await model.xml()).toContain('default="toCost"');
  });

  it('the condition check speaks English', async () => {
    const model = await loadModel();
    model.panel('toCost', 'en');
    fireEvent.change(screen.getByLabelText('Condition'), { target: { value: '' } });
    expect(await screen.findByText('Enter a condition such as ${amount > 100000}')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Condition'), { target: { value: '${a ==}' } });
    expect(await screen.findByText(/^Invalid expression: /)).toBeTruthy();
  });

  it('multi-instance: a parallel countersign over ${signers} with a completion condition compiles; switching it off removes it', async () => {
    const model = await loadModel(newModelXml('countersign', '会签', '会签'));
    model.panel('approve');
    fireEvent.click(screen.getByLabelText('启用多实例'));
    expect(await screen.findByText('请输入集合,如 ${signers}')).toBeTruthy();
    expect(model.info('approve').multi).toBeNull();
    fireEvent.change(screen.getByLabelText('集合'), { target: { value: '${signers}' } });
    fireEvent.change(screen.getByLabelText('完成条件'), { target: { value: '${nrOfCompletedInstances >= 2}' } });
    await waitFor(() =>
      expect(model.info('approve').multi).toEqual({
        sequential: false,
        collection: '${signers}',
        elementVariable: 'assignee',
        completion: '${nrOfCompletedInstances >= 2}',
      }),
    );
    fireEvent.click(screen.getByText('串行'));
    await waitFor(() => expect(model.info('approve').multi?.sequential).toBe(true));
    const xml = await model.xml();
    expect(xml).toContain('flowable:collection="${signers}"');
    const graph = await compileDefinition(xml);
    expect(graph.nodes.approve.multi).toMatchObject({ sequential: true, elementVariable: 'assignee' });

    fireEvent.click(screen.getByLabelText('启用多实例'));
    await waitFor(() => expect(model.info('approve').multi).toBeNull());
    expect(await model.xml()).not.toContain('multiInstanceLoopCharacteristics');
  });

  it('nothing selected: a hint; a start event shows only its name', async () => {
    renderWithApi(<PropertiesPanel info={null} users={[]} roles={[]} onWrite={() => undefined} />, { http: noHttp });
    expect(screen.getByText('在图上选择一个元素以编辑其属性')).toBeTruthy();
    cleanup();
    const model = await loadModel();
    model.panel('start');
    expect(screen.getByText(/开始事件/)).toBeTruthy();
    expect(screen.queryByLabelText('候选角色')).toBeNull();
    expect(screen.queryByLabelText('条件表达式')).toBeNull();
  });

  it('the new-model template compiles: start → one approval → end', async () => {
    const graph = await compileDefinition(newModelXml('myProcess', '我的流程'));
    expect(
      Object.values(graph.nodes)
        .map((n) => n.kind)
        .sort(),
    ).toEqual(['endEvent', 'startEvent', 'userTask']);
    expect(graph.key).toBe('myProcess');
  });
});
