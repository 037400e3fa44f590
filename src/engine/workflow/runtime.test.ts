import { beforeAll, describe, expect, it } from 'vitest';
import { compileDefinition, type ProcessGraph } from './definition.ts';
import { WorkflowError } from './messages.ts';
import { complete, recall, reject, start, terminate, type StepResult } from './runtime.ts';
import { chain, endEvent, exclusive, flow, parallel, processXml, startEvent, userTask } from './testing.ts';

/** Task references created by a step, by activity. */
const refs = (step: StepResult, activity?: string) => step.created.filter((t) => !activity || t.activityId === activity).map((t) => t.ref);
const passed = (step: StepResult) => step.history.map((h) => h.activityId);
const refusedWith = (fn: () => unknown, key: string) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WorkflowError);
    expect((err as WorkflowError).key).toBe(key);
    return err as WorkflowError;
  }
  throw new Error(`expected ${key}`);
};

/** Replays a sequence of steps through JSON, as the server stores the state between requests. */
const roundTrip = (step: StepResult): StepResult => ({ ...step, state: JSON.parse(JSON.stringify(step.state)) });

describe('a chain of approvals', () => {
  let graph: ProcessGraph;
  beforeAll(async () => {
    graph = await compileDefinition(
      processXml('demand', '需用计划审批', [
        startEvent('start'),
        userTask('pm', { name: '项目经理审批', candidateGroups: 'project_manager' }),
        exclusive('gw', 'small'),
        userTask('cost', { name: '成本经理审批', candidateGroups: 'cost_manager', candidateUsers: '${costUser}' }),
        endEvent('end'),
        flow('f1', 'start', 'pm'),
        flow('f2', 'pm', 'gw'),
        flow('large', 'gw', 'cost', '${amount > amountThreshold}'),
        flow('small', 'gw', 'end'),
        flow('f3', 'cost', 'end'),
      ]),
    );
  });

  it('starts at the first task with its candidates resolved, remembering the starter', () => {
    const s = start(graph, { amount: 800000, amountThreshold: 500000, costUser: '77' }, { initiator: '42' });
    expect(s.ended).toBe(false);
    expect(s.created).toEqual([
      {
        ref: 't2',
        activityId: 'pm',
        name: '项目经理审批',
        formKey: undefined,
        assignee: null,
        candidateUsers: [],
        candidateGroups: ['project_manager'],
        local: {},
      },
    ]);
    expect(passed(s)).toEqual(['start', 'f1', 'pm']);
    expect(s.state.vars.applyUser).toBe('42');
    expect(s.state.status).toBe('running');
    expect(JSON.stringify(s.state).length).toBeLessThan(400);
  });

  it('a large amount goes on to the cost manager, then ends approved', () => {
    const s1 = roundTrip(start(graph, { amount: 800000, amountThreshold: 500000, costUser: '77' }));
    const s2 = roundTrip(complete(graph, s1.state, refs(s1)[0], { pass: true, comment: 'ok' }));
    expect(s2.completed).toEqual(refs(s1));
    expect(s2.created).toMatchObject([{ activityId: 'cost', candidateGroups: ['cost_manager'], candidateUsers: ['77'] }]);
    expect(passed(s2)).toEqual(['f2', 'gw', 'large', 'cost']);
    const s3 = complete(graph, s2.state, refs(s2)[0]);
    expect(s3.ended).toBe(true);
    expect(s3.state).toMatchObject({ status: 'completed', end: 'end', tokens: [], tasks: {} });
    expect(passed(s3)).toEqual(['f3', 'end']);
  });

  it('a small amount takes the default flow and ends after the project manager', () => {
    const s1 = start(graph, { amount: 1000, amountThreshold: 500000 });
    const s2 = complete(graph, s1.state, refs(s1)[0]);
    expect(s2.ended).toBe(true);
    expect(passed(s2)).toEqual(['f2', 'gw', 'small', 'end']);
  });

  it('variables given at completion decide later gateways', () => {
    const s1 = start(graph, { amount: 1000, amountThreshold: 500000 });
    const s2 = complete(graph, s1.state, refs(s1)[0], { amount: 900000 });
    expect(s2.created[0].activityId).toBe('cost');
  });

  it('never changes the state it was given', () => {
    const s1 = start(graph, { amount: 1 });
    const before = JSON.stringify(s1.state);
    complete(graph, s1.state, refs(s1)[0]);
    expect(JSON.stringify(s1.state)).toBe(before);
  });

  it('refuses a task that is not active, and any step after the end', () => {
    const s1 = start(graph, { amount: 1 });
    refusedWith(() => complete(graph, s1.state, 't999'), 'taskNotActive');
    const done = complete(graph, s1.state, refs(s1)[0]);
    refusedWith(() => complete(graph, done.state, refs(s1)[0]), 'notRunning');
    refusedWith(() => reject(graph, done.state, refs(s1)[0]), 'notRunning');
    refusedWith(() => recall(graph, done.state), 'notRunning');
  });
});

describe('reject, recall, terminate', () => {
  let graph: ProcessGraph;
  beforeAll(async () => {
    graph = await compileDefinition(chain('two', ['a', 'b']));
  });

  it('a reject ends the instance as rejected', () => {
    const s1 = start(graph);
    const s2 = complete(graph, s1.state, refs(s1)[0]);
    const s3 = reject(graph, s2.state, refs(s2)[0], { pass: false });
    expect(s3).toMatchObject({ ended: true, completed: refs(s2), cancelled: [], created: [] });
    expect(s3.state).toMatchObject({ status: 'rejected', tasks: {}, tokens: [], vars: { pass: false } });
  });

  it('the starter may recall before anyone acted, not after', () => {
    const s1 = start(graph);
    const back = recall(graph, s1.state);
    expect(back).toMatchObject({ ended: true, cancelled: refs(s1) });
    expect(back.state.status).toBe('withdrawn');
    const s2 = complete(graph, s1.state, refs(s1)[0]);
    refusedWith(() => recall(graph, s2.state), 'alreadyActed');
  });

  it('terminate withdraws every open task', () => {
    const s1 = start(graph);
    const end = terminate(graph, s1.state);
    expect(end).toMatchObject({ ended: true, cancelled: refs(s1) });
    expect(end.state.status).toBe('terminated');
  });
});

describe('parallel gateways', () => {
  let graph: ProcessGraph;
  beforeAll(async () => {
    graph = await compileDefinition(
      processXml('review', '并行审核', [
        startEvent('start'),
        parallel('fork'),
        userTask('finance', { name: '财务', candidateGroups: 'finance' }),
        userTask('legal', { name: '法务', candidateGroups: 'legal' }),
        parallel('join'),
        userTask('boss', { name: '总经理', assignee: 'boss' }),
        endEvent('end'),
        flow('f1', 'start', 'fork'),
        flow('f2', 'fork', 'finance'),
        flow('f3', 'fork', 'legal'),
        flow('f4', 'finance', 'join'),
        flow('f5', 'legal', 'join'),
        flow('f6', 'join', 'boss'),
        flow('f7', 'boss', 'end'),
      ]),
    );
  });

  it('forks into both branches and joins only when both are done, in either order', () => {
    for (const order of [
      ['finance', 'legal'],
      ['legal', 'finance'],
    ]) {
      const s1 = roundTrip(start(graph));
      expect(s1.created.map((t) => t.activityId)).toEqual(['finance', 'legal']);
      const s2 = roundTrip(complete(graph, s1.state, refs(s1, order[0])[0]));
      expect(s2.created).toEqual([]);
      expect(s2.state.joins).toEqual({ join: 1 });
      const s3 = complete(graph, s2.state, refs(s1, order[1])[0]);
      expect(s3.created).toMatchObject([{ activityId: 'boss', assignee: 'boss' }]);
      expect(passed(s3)).toContain('join');
      expect(s3.state.joins).toEqual({});
    }
  });

  it('a reject in one branch withdraws the other', () => {
    const s1 = start(graph);
    const s2 = reject(graph, s1.state, refs(s1, 'finance')[0]);
    expect(s2.cancelled).toEqual(refs(s1, 'legal'));
    expect(s2.state.status).toBe('rejected');
  });

  it('a terminate end event in one branch ends the whole instance', async () => {
    const g = await compileDefinition(
      processXml('t', 'T', [
        startEvent('s'),
        parallel('fork'),
        userTask('a', { assignee: 'u1' }),
        userTask('b', { assignee: 'u2' }),
        endEvent('stop', true),
        endEvent('e'),
        flow('f1', 's', 'fork'),
        flow('f2', 'fork', 'a'),
        flow('f3', 'fork', 'b'),
        flow('f4', 'a', 'stop'),
        flow('f5', 'b', 'e'),
      ]),
    );
    const s1 = start(g);
    const s2 = complete(g, s1.state, refs(s1, 'a')[0]);
    expect(s2).toMatchObject({ ended: true, cancelled: refs(s1, 'b') });
    expect(s2.state).toMatchObject({ status: 'completed', end: 'stop' });
  });
});

describe('multi-instance (countersign)', () => {
  const countersign = (multi: Parameters<typeof userTask>[1]['multi']) =>
    compileDefinition(
      processXml('countersign', '会签', [
        startEvent('s'),
        userTask('sign', { name: '会签', assignee: '${signer}', multi }),
        userTask('after', { assignee: 'clerk' }),
        endEvent('e'),
        flow('f1', 's', 'sign'),
        flow('f2', 'sign', 'after'),
        flow('f3', 'after', 'e'),
      ]),
    );

  it('parallel: one task per signer; two of three approvals finish it and withdraw the third', async () => {
    const graph = await countersign({ collection: '${signers}', elementVariable: 'signer', completion: '${nrOfCompletedInstances >= 2}' });
    const s1 = roundTrip(start(graph, { signers: ['11', '12', '13'] }));
    expect(s1.created.map((t) => [t.assignee, t.local])).toEqual([
      ['11', { loopCounter: 0, signer: '11' }],
      ['12', { loopCounter: 1, signer: '12' }],
      ['13', { loopCounter: 2, signer: '13' }],
    ]);
    const [a, b, c] = refs(s1);
    const s2 = roundTrip(complete(graph, s1.state, b));
    expect(s2).toMatchObject({ created: [], cancelled: [], ended: false });
    const s3 = complete(graph, s2.state, a);
    expect(s3.cancelled).toEqual([c]);
    expect(s3.created).toMatchObject([{ activityId: 'after', assignee: 'clerk' }]);
    refusedWith(() => complete(graph, s3.state, c), 'taskNotActive');
  });

  it('parallel without a condition waits for every signer', async () => {
    const graph = await countersign({ collection: '${signers}', elementVariable: 'signer' });
    let step = start(graph, { signers: '11,12' });
    const [a, b] = refs(step);
    step = complete(graph, step.state, a);
    expect(step.created).toEqual([]);
    step = complete(graph, step.state, b);
    expect(step.created[0].activityId).toBe('after');
  });

  it("sequential: one signer after another, in the list's order", async () => {
    const graph = await countersign({ collection: '${signers}', elementVariable: 'signer', sequential: true });
    let step = roundTrip(start(graph, { signers: ['11', '12', '13'] }));
    const seen: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      expect(step.created).toHaveLength(1);
      seen.push(step.created[0].assignee);
      step = roundTrip(complete(graph, step.state, refs(step)[0]));
    }
    expect(seen).toEqual(['11', '12', '13']);
    expect(step.created[0].activityId).toBe('after');
  });

  it('sequential with a completion condition stops early', async () => {
    const graph = await countersign({
      collection: '${signers}',
      elementVariable: 'signer',
      sequential: true,
      completion: '${nrOfCompletedInstances == 1}',
    });
    const s1 = start(graph, { signers: ['11', '12'] });
    const s2 = complete(graph, s1.state, refs(s1)[0]);
    expect(s2.created[0].activityId).toBe('after');
  });

  it('loopCardinality makes that many instances; an empty collection passes straight through', async () => {
    const byCount = await compileDefinition(
      processXml('n', 'N', [
        startEvent('s'),
        userTask('sign', { candidateGroups: 'board', multi: { cardinality: '${seats}' } }),
        endEvent('e'),
        flow('f1', 's', 'sign'),
        flow('f2', 'sign', 'e'),
      ]),
    );
    expect(start(byCount, { seats: 3 }).created).toHaveLength(3);
    const graph = await countersign({ collection: '${signers}', elementVariable: 'signer' });
    expect(start(graph, { signers: [] }).created.map((t) => t.activityId)).toEqual(['after']);
  });

  it('refuses a collection that is not a list and absurd instance counts', async () => {
    const graph = await countersign({ collection: '${signers}', elementVariable: 'signer' });
    refusedWith(() => start(graph, { signers: { a: 1 } }), 'collectionNotList');
    refusedWith(() => start(graph, { signers: Array.from({ length: 201 }, (_, i) => String(i)) }), 'tooManyInstances');
  });
});

describe('run-time refusals', () => {
  it('an exclusive gateway with no true condition and no default', async () => {
    const graph = await compileDefinition(
      processXml('g', 'G', [
        startEvent('s'),
        exclusive('gw'),
        userTask('a', { assignee: 'u' }),
        endEvent('e'),
        flow('f1', 's', 'gw'),
        flow('f2', 'gw', 'a', '${amount > 10}'),
        flow('f3', 'gw', 'e', '${amount < 0}'),
        flow('f4', 'a', 'e'),
      ]),
    );
    const err = refusedWith(() => start(graph, { amount: 5 }), 'noMatchingFlow');
    expect(err.render('zh')).toBe('排他网关 (gw) 没有满足条件的出线');
  });

  it('a task whose assignee expression yields nobody', async () => {
    const graph = await compileDefinition(
      processXml('g', 'G', [
        startEvent('s'),
        userTask('a', { name: '经办', assignee: '${nobody}' }),
        endEvent('e'),
        flow('f1', 's', 'a'),
        flow('f2', 'a', 'e'),
      ]),
    );
    expect(refusedWith(() => start(graph), 'nobodyToHandle').render('en')).toBe('Nobody can handle user task "经办" (a)');
  });

  it('a condition that cannot be evaluated names its gateway', async () => {
    const graph = await compileDefinition(
      processXml('g', 'G', [
        startEvent('s'),
        exclusive('gw', 'f3'),
        endEvent('e'),
        flow('f1', 's', 'gw'),
        flow('f2', 'gw', 'e', '${amount / 0 > 1}'),
        flow('f3', 'gw', 'e'),
      ]),
    );
    expect(refusedWith(() => start(graph, { amount: 1 }), 'expressionFailed').render('en')).toBe(
      'The expression on exclusive gateway (gw) failed: division by zero',
    );
  });

  it('gateways that loop without a user task stop instead of spinning', async () => {
    const graph = await compileDefinition(
      processXml('loop', 'L', [
        startEvent('s'),
        exclusive('g1', 'out'),
        exclusive('g2'),
        endEvent('e'),
        flow('f1', 's', 'g1'),
        flow('again', 'g1', 'g2', '${spin}'),
        flow('back', 'g2', 'g1'),
        flow('out', 'g1', 'e'),
      ]),
    );
    expect(start(graph, { spin: false }).ended).toBe(true);
    refusedWith(() => start(graph, { spin: true }), 'endlessLoop');
  });
});
