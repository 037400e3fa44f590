// What the designer's properties panel reads from and writes into a BPMN element, with no bpmn-js
// in sight: an element's business object (a bpmn-moddle element) becomes plain ElementInfo, and an
// edit becomes a list of Writes applied through a WriteTarget — bpmn-js's modeling API in the
// designer, a bare moddle tree in the tests. The attributes are the Flowable ones the engine's
// parser reads (src/engine/workflow/definition.ts): flowable:assignee, candidateUsers,
// candidateGroups, collection, elementVariable; conditions are bpmn:FormalExpression bodies.
import { parseTemplate, isExpression } from '../../../engine/workflow/expression.ts';
import type { Lang } from '../../../engine/model/types.ts';
import { translate } from '../../i18n/useT.ts';

export const FLOWABLE_URI = 'http://flowable.org/bpmn';

/** The Flowable attributes as a moddle package (bpmn-js `moddleExtensions.flowable`). */
export const FLOWABLE_MODDLE = (() => {
  const attr = (name: string) => ({ name, isAttr: true, type: 'String' });
  return {
    name: 'flowable',
    prefix: 'flowable',
    uri: FLOWABLE_URI,
    associations: [],
    xml: { tagAlias: 'lowerCase' },
    types: [
      {
        name: 'UserTaskAttrs',
        extends: ['bpmn:UserTask'],
        isAbstract: true,
        properties: ['assignee', 'candidateUsers', 'candidateGroups', 'formKey'].map(attr),
      },
      { name: 'StartEventAttrs', extends: ['bpmn:StartEvent'], isAbstract: true, properties: ['initiator', 'formKey'].map(attr) },
      {
        name: 'LoopAttrs',
        extends: ['bpmn:MultiInstanceLoopCharacteristics'],
        isAbstract: true,
        properties: ['collection', 'elementVariable'].map(attr),
      },
    ],
  };
})();

/** The part of a moddle element the panel touches. */
export interface BusinessObject {
  $type: string;
  id: string;
  name?: string;
  get(name: string): any;
  [key: string]: any;
}

export type ElementKind = 'startEvent' | 'endEvent' | 'userTask' | 'exclusiveGateway' | 'parallelGateway' | 'sequenceFlow' | 'other';

export interface MultiInstanceInfo {
  sequential: boolean;
  collection: string;
  elementVariable: string;
  completion: string;
}

export interface ElementInfo {
  id: string;
  type: string;
  kind: ElementKind;
  name: string;
  assignee: string;
  candidateUsers: string[];
  candidateGroups: string[];
  multi: MultiInstanceInfo | null;
  /** sequence flow: its condition body, whether it leaves an exclusive gateway, whether it is that gateway's default */
  condition: string;
  fromExclusive: boolean;
  isDefault: boolean;
  gatewayId: string;
}

const KINDS: Record<string, ElementKind> = {
  'bpmn:StartEvent': 'startEvent',
  'bpmn:EndEvent': 'endEvent',
  'bpmn:UserTask': 'userTask',
  'bpmn:ExclusiveGateway': 'exclusiveGateway',
  'bpmn:ParallelGateway': 'parallelGateway',
  'bpmn:SequenceFlow': 'sequenceFlow',
};

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
export const splitList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function readElement(bo: BusinessObject): ElementInfo {
  const kind = KINDS[bo.$type] ?? 'other';
  const loop = bo.loopCharacteristics;
  const source = bo.sourceRef as BusinessObject | undefined;
  const fromExclusive = kind === 'sequenceFlow' && source?.$type === 'bpmn:ExclusiveGateway';
  return {
    id: bo.id,
    type: bo.$type,
    kind,
    name: text(bo.name),
    assignee: kind === 'userTask' ? text(bo.get('flowable:assignee')) : '',
    candidateUsers: kind === 'userTask' ? splitList(text(bo.get('flowable:candidateUsers'))) : [],
    candidateGroups: kind === 'userTask' ? splitList(text(bo.get('flowable:candidateGroups'))) : [],
    multi:
      loop && loop.$type === 'bpmn:MultiInstanceLoopCharacteristics'
        ? {
            sequential: loop.isSequential === true,
            collection: text(loop.get('flowable:collection')),
            elementVariable: text(loop.get('flowable:elementVariable')),
            completion: text(loop.completionCondition?.body),
          }
        : null,
    condition: kind === 'sequenceFlow' ? text(bo.conditionExpression?.body) : '',
    fromExclusive,
    isDefault: fromExclusive && source?.default === bo,
    gatewayId: fromExclusive ? source!.id : '',
  };
}

/** One change to the model; `undefined` removes an attribute. */
export type Write =
  | { kind: 'props'; id: string; props: Record<string, string | undefined> }
  | { kind: 'condition'; id: string; body: string | undefined }
  | { kind: 'default'; gatewayId: string; flowId: string | undefined }
  | { kind: 'loop'; id: string; loop: MultiInstanceInfo | null };

const orUndefined = (v: string) => (v.trim() === '' ? undefined : v.trim());

export function nameWrites(info: ElementInfo, name: string): Write[] {
  return [{ kind: 'props', id: info.id, props: { name: orUndefined(name) } }];
}

export interface Assignment {
  assignee: string;
  candidateUsers: string[];
  candidateGroups: string[];
}

/** A user task's handlers: picked ids / role aliases, or expressions, as Flowable attributes. */
export function assignmentWrites(info: ElementInfo, a: Assignment): Write[] {
  const list = (items: string[]) =>
    orUndefined(
      items
        .map((s) => s.trim())
        .filter(Boolean)
        .join(','),
    );
  return [
    {
      kind: 'props',
      id: info.id,
      props: {
        'flowable:assignee': orUndefined(a.assignee),
        'flowable:candidateUsers': list(a.candidateUsers),
        'flowable:candidateGroups': list(a.candidateGroups),
      },
    },
  ];
}

/** A flow's condition (only off an exclusive gateway); an empty one removes it. */
export function conditionWrites(info: ElementInfo, body: string): Write[] {
  return [{ kind: 'condition', id: info.id, body: orUndefined(body) }];
}

/** Makes the flow its gateway's default (which carries no condition), or not. */
export function defaultWrites(info: ElementInfo, isDefault: boolean): Write[] {
  if (!info.fromExclusive) return [];
  if (!isDefault) return info.isDefault ? [{ kind: 'default', gatewayId: info.gatewayId, flowId: undefined }] : [];
  return [
    { kind: 'condition', id: info.id, body: undefined },
    { kind: 'default', gatewayId: info.gatewayId, flowId: info.id },
  ];
}

export function loopWrites(info: ElementInfo, multi: MultiInstanceInfo | null): Write[] {
  return [{ kind: 'loop', id: info.id, loop: multi }];
}

/** Where writes land: bpmn-js's modeling (designer) or plain moddle elements (tests). */
export interface WriteTarget {
  element(id: string): BusinessObject | undefined;
  update(id: string, props: Record<string, unknown>): void;
  create(type: string, attrs: Record<string, unknown>): unknown;
}

export function applyWrites(target: WriteTarget, writes: Write[]): void {
  const expression = (body: string) => target.create('bpmn:FormalExpression', { body });
  for (const w of writes) {
    switch (w.kind) {
      case 'props':
        target.update(w.id, w.props);
        break;
      case 'condition':
        target.update(w.id, { conditionExpression: w.body === undefined ? undefined : expression(w.body) });
        break;
      case 'default':
        target.update(w.gatewayId, { default: w.flowId === undefined ? undefined : target.element(w.flowId) });
        break;
      case 'loop': {
        const l = w.loop;
        const loop =
          l &&
          target.create('bpmn:MultiInstanceLoopCharacteristics', {
            isSequential: l.sequential,
            ...(orUndefined(l.collection) ? { 'flowable:collection': l.collection.trim() } : {}),
            ...(orUndefined(l.elementVariable) ? { 'flowable:elementVariable': l.elementVariable.trim() } : {}),
            ...(orUndefined(l.completion) ? { completionCondition: expression(l.completion.trim()) } : {}),
          });
        target.update(w.id, { loopCharacteristics: loop ?? undefined });
        break;
      }
    }
  }
}

// ---- live checks with the engine's own parser ----

/** The problem with text that may hold `${…}` expressions (handlers, collections), or null. */
export function checkTemplate(value: string, lang: Lang): string | null {
  if (!value.trim()) return null;
  try {
    parseTemplate(value.trim());
    return null;
  } catch (err) {
    return translate(lang, 'designer.invalidExpression', { detail: (err as Error).message });
  }
}

/** The problem with a condition (a gateway's outgoing flow, a completion condition), or null. */
export function checkCondition(value: string, lang: Lang, required = true): string | null {
  if (!value.trim()) return required ? translate(lang, 'designer.conditionRequired') : null;
  try {
    if (!isExpression(parseTemplate(value.trim()))) return translate(lang, 'designer.notExpression');
    return null;
  } catch (err) {
    return translate(lang, 'designer.invalidExpression', { detail: (err as Error).message });
  }
}

// ---- a new model ----

const escapeXml = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/** start → one user task (the submitter's department manager role) → end, with its layout. */
export function newModelXml(key: string, name: string, taskName = '审批'): string {
  const k = escapeXml(key);
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:flowable="${FLOWABLE_URI}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" targetNamespace="https://zhusuan.dev/workflows">
  <process id="${k}" name="${escapeXml(name)}" isExecutable="true">
    <startEvent id="start" name="提交" flowable:initiator="applyUser"/>
    <userTask id="approve" name="${escapeXml(taskName)}" flowable:candidateGroups="project_manager"/>
    <endEvent id="end" name="结束"/>
    <sequenceFlow id="toApprove" sourceRef="start" targetRef="approve"/>
    <sequenceFlow id="toEnd" sourceRef="approve" targetRef="end"/>
  </process>
  <bpmndi:BPMNDiagram id="diagram">
    <bpmndi:BPMNPlane id="plane" bpmnElement="${k}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="102" y="182" width="36" height="36"/></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approve_di" bpmnElement="approve"><dc:Bounds x="200" y="160" width="100" height="80"/></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="362" y="182" width="36" height="36"/></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="toApprove_di" bpmnElement="toApprove"><di:waypoint x="138" y="200"/><di:waypoint x="200" y="200"/></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toEnd_di" bpmnElement="toEnd"><di:waypoint x="300" y="200"/><di:waypoint x="362" y="200"/></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>
`;
}

/** A copy of a deployed process's XML under another key: the process id is the model key. */
export function withProcessKey(xml: string, key: string): string {
  const current = /<(?:[\w-]+:)?process\b[^>]*?\sid\s*=\s*"([^"]+)"/.exec(xml)?.[1];
  if (!current || current === key) return xml;
  return xml
    .replace(
      new RegExp(`(<(?:[\\w-]+:)?process\\b[^>]*?\\sid\\s*=\\s*")${current.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`),
      `$1${escapeXml(key)}"`,
    )
    .replace(new RegExp(`bpmnElement="${current.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`, 'g'), `bpmnElement="${escapeXml(key)}"`);
}
