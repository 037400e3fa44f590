import { describe, expect, it } from 'vitest';
import { compileDefinition } from './definition.ts';
import { DefinitionError } from './messages.ts';
import { chain, definitions, endEvent, exclusive, flow, parallel, processXml, startEvent, userTask } from './testing.ts';

/** The refusal messages of a model, in both languages. */
async function refusal(xml: string): Promise<{ zh: string; en: string }> {
  try {
    await compileDefinition(xml);
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    return { zh: err.render('zh'), en: err.render('en') };
  }
  throw new Error('the model was accepted');
}

/** start → [element under test between a and b] → end */
const around = (inner: string[], first = 'x', last = 'x') =>
  processXml('p', 'P', [startEvent('s'), flow('f1', 's', first), ...inner, flow('f9', last, 'e'), endEvent('e')]);

describe('compiling a model', () => {
  it('reads assignments, conditions, defaults and multi-instance settings', async () => {
    const graph = await compileDefinition(
      processXml('contract', '合同审批', [
        startEvent('start'),
        userTask('dept', { name: '部门审批', candidateGroups: 'manager,deputy' }),
        exclusive('gw', 'toEnd'),
        userTask('sign', {
          name: '会签',
          assignee: '${signer}',
          multi: { collection: '${signers}', elementVariable: 'signer', completion: '${nrOfCompletedInstances >= 2}' },
        }),
        endEvent('end'),
        flow('f1', 'start', 'dept'),
        flow('f2', 'dept', 'gw'),
        flow('toSign', 'gw', 'sign', '${amount > 100000}'),
        flow('toEnd', 'gw', 'end'),
        flow('f5', 'sign', 'end'),
      ]),
    );
    expect(graph).toMatchObject({ key: 'contract', name: '合同审批', initiator: 'applyUser', start: 'start' });
    expect(graph.nodes.dept).toMatchObject({
      kind: 'userTask',
      name: '部门审批',
      incoming: ['f1'],
      outgoing: ['f2'],
      candidateGroups: { parts: ['manager,deputy'] },
    });
    expect(graph.nodes.gw).toMatchObject({ kind: 'exclusiveGateway', default: 'toEnd', outgoing: ['toSign', 'toEnd'] });
    expect(graph.nodes.sign.multi).toMatchObject({ sequential: false, elementVariable: 'signer' });
    expect(graph.flows.toSign.condition).toBeDefined();
    expect(JSON.parse(JSON.stringify(graph))).toEqual(graph);
  });

  it('accepts the Activiti and Camunda namespaces and a pool around the process', async () => {
    for (const [prefix, uri] of [
      ['activiti', 'http://activiti.org/bpmn'],
      ['camunda', 'http://camunda.org/schema/1.0/bpmn'],
    ]) {
      const xml = definitions(
        `<collaboration id="c"><participant id="pool" processRef="p"/></collaboration>
        <process id="p"><startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
        <userTask id="t" ${prefix}:assignee="\${applyUser}"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/></process>`,
        ` xmlns:${prefix}="${uri}"`,
      ).replace(' xmlns:flowable="http://flowable.org/bpmn"', '');
      const graph = await compileDefinition(xml);
      expect(graph.nodes.t.assignee).toEqual({ parts: [{ t: 'var', name: 'applyUser' }] });
    }
  });

  it('keeps terminate end events', async () => {
    const graph = await compileDefinition(around([userTask('x', { assignee: 'u' })]).replace('<endEvent id="e"/>', endEvent('e', true)));
    expect(graph.nodes.e.terminate).toBe(true);
  });
});

describe('refusing what the interpreter does not run, naming the element', () => {
  it('refuses script tasks (no code ever runs)', async () => {
    const msg = await refusal(
      around([
        `<scriptTask id="x" name="算价" scriptFormat="javascript"><script>this.constructor.constructor('return process')()</script></scriptTask>`,
      ]),
    );
    expect(msg.zh).toContain('不支持的流程元素 脚本任务 "算价" (x)');
    expect(msg.en).toContain('Unsupported process element script task "算价" (x)');
  });

  it('refuses service tasks, sub-processes, call activities, boundary and intermediate events', async () => {
    const cases: [string, string][] = [
      ['<serviceTask id="x" flowable:class="com.evil.Task"/>', 'service task (x)'],
      ['<subProcess id="x"><startEvent id="ss"/></subProcess>', 'sub-process (x)'],
      ['<callActivity id="x" calledElement="other"/>', 'call activity (x)'],
      ['<sendTask id="x"/>', 'sendTask (x)'],
      ['<inclusiveGateway id="x"/>', 'inclusive gateway (x)'],
      [
        '<intermediateCatchEvent id="x"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></intermediateCatchEvent>',
        'intermediateCatchEvent (x)',
      ],
    ];
    for (const [element, named] of cases) expect((await refusal(around([element]))).en).toContain(`Unsupported process element ${named}`);
    const boundary = await refusal(
      around([userTask('x', { assignee: 'u' }), '<boundaryEvent id="b" attachedToRef="x"><timerEventDefinition/></boundaryEvent>']),
    );
    expect(boundary.en).toContain('boundary event (b)');
  });

  it('refuses timers and messages on start and end events', async () => {
    const timer = processXml('p', 'P', [
      '<startEvent id="s"><timerEventDefinition><timeCycle>R/PT1M</timeCycle></timerEventDefinition></startEvent>',
      userTask('x', { assignee: 'u' }),
      endEvent('e'),
      flow('f1', 's', 'x'),
      flow('f2', 'x', 'e'),
    ]);
    expect((await refusal(timer)).en).toContain('timer on start event (s) is not supported');
    const message = around([userTask('x', { assignee: 'u' })]).replace(
      '<endEvent id="e"/>',
      '<endEvent id="e"><messageEventDefinition/></endEvent>',
    );
    expect((await refusal(message)).zh).toContain('结束事件 (e) 的 messageEventDefinition 不被支持');
  });

  it('refuses listeners and other extensions, which would be behaviour', async () => {
    const xml = around([
      '<userTask id="x" flowable:assignee="u"><extensionElements><flowable:taskListener event="create" class="com.evil.L"/></extensionElements></userTask>',
    ]);
    expect((await refusal(xml)).en).toContain('flowable:taskListener');
    const foreign = around([
      '<userTask id="x" flowable:assignee="u"><extensionElements><foo:listener xmlns:foo="http://foo" class="com.evil.L"/></extensionElements></userTask>',
    ]);
    expect((await refusal(foreign)).en).toContain('Extension foo:listener on user task (x) is not supported');
  });

  it('refuses conditions in other languages and conditions off gateways', async () => {
    const js = around([userTask('x', { assignee: 'u' })]).replace(
      '<sequenceFlow id="f9" sourceRef="x" targetRef="e"/>',
      '<sequenceFlow id="f9" sourceRef="x" targetRef="e"><conditionExpression xsi:type="tFormalExpression" language="javascript">true</conditionExpression></sequenceFlow>',
    );
    expect((await refusal(js)).en).toContain('Condition language javascript on sequence flow (f9) is not supported');
    const offGateway = around([userTask('x', { assignee: 'u' })]).replace(
      '<sequenceFlow id="f9" sourceRef="x" targetRef="e"/>',
      flow('f9', 'x', 'e', '${pass}'),
    );
    expect((await refusal(offGateway)).en).toContain('sequence flow (f9) has a condition but does not leave an exclusive gateway');
  });

  it('refuses expressions that do not parse, naming the element', async () => {
    expect((await refusal(around([userTask('x', { name: '审批', assignee: '${applyUser(}' })]))).zh).toContain(
      '用户任务 "审批" (x) 的表达式无效',
    );
    const gateway = processXml('p', 'P', [
      startEvent('s'),
      exclusive('g'),
      endEvent('e'),
      flow('f1', 's', 'g'),
      flow('f2', 'g', 'e', "${''.constructor.constructor('x')()}"),
    ]);
    expect((await refusal(gateway)).en).toContain('Invalid expression on sequence flow (f2): calls are not supported');
  });

  it('refuses standard loops and multi-instance tasks without a collection', async () => {
    expect((await refusal(around(['<userTask id="x" flowable:assignee="u"><standardLoopCharacteristics/></userTask>']))).en).toContain(
      'standardLoopCharacteristics on user task (x) is not supported',
    );
    expect((await refusal(around(['<userTask id="x" flowable:assignee="u"><multiInstanceLoopCharacteristics/></userTask>']))).en).toContain(
      'user task (x) is multi-instance and needs a collection',
    );
  });

  it('refuses user tasks nobody could handle', async () => {
    expect((await refusal(around(['<userTask id="x" name="无人"/>']))).zh).toContain('用户任务 "无人" (x) 没有处理人、候选人或候选组');
  });

  it('refuses broken shapes: no start, two starts, no end, dangling flows, wrong counts', async () => {
    expect((await refusal(processXml('p', 'P', [userTask('x', { assignee: 'u' }), endEvent('e'), flow('f', 'x', 'e')]))).en).toContain(
      'exactly one start event; it has 0',
    );
    expect(
      (await refusal(processXml('p', 'P', [startEvent('s1'), startEvent('s2'), endEvent('e'), flow('a', 's1', 'e'), flow('b', 's2', 'e')])))
        .en,
    ).toContain('it has 2');
    expect((await refusal(processXml('p', 'P', [startEvent('s'), userTask('x', { assignee: 'u' }), flow('f', 's', 'x')]))).en).toContain(
      'no end event',
    );
    expect((await refusal(around([userTask('x', { assignee: 'u' }), flow('ghost', 'x', 'nowhere')]))).en).toContain(
      'sequence flow (ghost) does not connect',
    );
    const twoOut = around([userTask('x', { assignee: 'u' }), flow('f8', 'x', 'e')]);
    expect((await refusal(twoOut)).en).toContain('user task (x) needs 1 outgoing flow(s); it has 2');
  });

  it('refuses unreachable nodes and dead ends', async () => {
    const island = around([
      userTask('x', { assignee: 'u' }),
      userTask('lonely', { assignee: 'u' }),
      userTask('lonely2', { assignee: 'u' }),
      flow('fa', 'lonely', 'lonely2'),
      flow('fb', 'lonely2', 'lonely'),
    ]);
    expect((await refusal(island)).en).toContain('user task (lonely) cannot be reached from the start event');
    const loop = processXml('p', 'P', [
      startEvent('s'),
      exclusive('g'),
      userTask('x', { assignee: 'u' }),
      endEvent('e'),
      flow('f1', 's', 'g'),
      flow('f2', 'g', 'x', '${a}'),
      flow('f3', 'x', 'x2'),
      userTask('x2', { assignee: 'u' }),
      flow('f4', 'x2', 'x'),
      flow('f5', 'g', 'e', '${!a}'),
    ]);
    expect((await refusal(loop)).en).toContain('No end event can be reached from user task (x)');
  });

  it("refuses a default flow that is not the gateway's own or carries a condition", async () => {
    const foreign = processXml('p', 'P', [
      startEvent('s'),
      exclusive('g', 'f1'),
      endEvent('e'),
      flow('f1', 's', 'g'),
      flow('f2', 'g', 'e', '${a}'),
    ]);
    expect((await refusal(foreign)).en).toContain('The default flow f1 of exclusive gateway (g) is not one of its outgoing flows');
    const conditional = processXml('p', 'P', [
      startEvent('s'),
      exclusive('g', 'f2'),
      endEvent('e'),
      flow('f1', 's', 'g'),
      flow('f2', 'g', 'e', '${a}'),
    ]);
    expect((await refusal(conditional)).en).toContain('The default flow f2 cannot have a condition');
  });

  it('refuses conditions on parallel gateways', async () => {
    const xml = processXml('p', 'P', [
      startEvent('s'),
      parallel('fork'),
      endEvent('e'),
      flow('f1', 's', 'fork'),
      flow('f2', 'fork', 'e', '${a}'),
    ]);
    expect((await refusal(xml)).en).toContain('Flow f2 leaving parallel gateway (fork) cannot have a condition');
  });

  it('refuses files that are not one BPMN process', async () => {
    expect((await refusal('not xml at all')).en).toMatch(/^Not a valid BPMN file/);
    expect((await refusal('')).en).toMatch(/^Not a valid BPMN file/);
    expect((await refusal(definitions(''))).en).toContain('exactly one process; it holds 0');
    const two = definitions('<process id="a"/><process id="b"/>');
    expect((await refusal(two)).en).toContain('it holds 2');
    expect((await refusal(definitions('<message id="m"/><process id="a"/>'))).en).toContain('Unsupported definition message (m)');
    expect((await refusal(chain('p', ['a']).replace('<process', '<foo:bar xmlns:foo="http://foo"/><process'))).en).toContain(
      'Unsupported element <foo:bar>',
    );
    expect((await refusal(chain('k'.repeat(101), ['a']))).en).toContain(`Process key ${'k'.repeat(101)} is invalid`);
    expect((await refusal('x'.repeat(1_000_001))).en).toContain('larger than 1000000 bytes');
  });

  it('lists every problem of a model at once', async () => {
    const xml = around(['<scriptTask id="x"/>', '<serviceTask id="y"/>']);
    const err = await compileDefinition(xml).catch((e) => e);
    expect(err).toBeInstanceOf(DefinitionError);
    expect(err.issues.length).toBeGreaterThanOrEqual(2);
  });

  it('does not resolve external entities', async () => {
    const xxe =
      `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>` +
      chain('p', ['a']).replace('<?xml version="1.0" encoding="UTF-8"?>', '').replace('name="p"', 'name="&x;"');
    const graph = await compileDefinition(xxe).catch((e) => e);
    if (!(graph instanceof DefinitionError)) expect(graph.name).not.toContain('root:');
  });
});
