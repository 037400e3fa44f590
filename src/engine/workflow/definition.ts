// Deploy time: BPMN XML (Flowable, Activiti or Camunda attributes) → the compiled process graph the
// interpreter runs. Parsed with bpmn-moddle; anything outside the supported subset is refused with
// the element named, so an uploaded model can never reach the interpreter with behaviour it would
// silently skip (scripts, service calls, timers, sub-processes, listeners).
import { BpmnModdle, type ModdleElement, type ParseResult } from 'bpmn-moddle';
import { ExpressionError, parseTemplate, type Template } from './expression.ts';
import { DefinitionError, elementLabel, typeName, type WorkflowMessage, type WorkflowMessageKey } from './messages.ts';

export type NodeKind = 'startEvent' | 'endEvent' | 'userTask' | 'exclusiveGateway' | 'parallelGateway';

export interface MultiInstance {
  sequential: boolean;
  /** The list to iterate (`${signers}`), or a number of instances. */
  collection?: Template;
  cardinality?: Template;
  elementVariable?: string;
  completion?: Template;
}

export interface FlowNode {
  id: string;
  kind: NodeKind;
  name: string;
  incoming: string[];
  outgoing: string[];
  /** exclusive gateway: the flow taken when no condition holds */
  default?: string;
  /** end event: ends the whole instance */
  terminate?: boolean;
  assignee?: Template;
  candidateUsers?: Template;
  candidateGroups?: Template;
  formKey?: string;
  multi?: MultiInstance;
}

export interface SequenceFlow {
  id: string;
  name: string;
  source: string;
  target: string;
  condition?: Template;
}

/** A compiled process: plain JSON, so it can be cached and shared between requests. */
export interface ProcessGraph {
  key: string;
  name: string;
  description: string;
  /** Variable that receives the starting user's id (flowable:initiator). */
  initiator?: string;
  start: string;
  nodes: Readonly<Record<string, FlowNode>>;
  flows: Readonly<Record<string, SequenceFlow>>;
}

export const DEFINITION_LIMITS = { bytes: 1_000_000, elements: 1000 } as const;

const EXTENSION_URIS = {
  flowable: 'http://flowable.org/bpmn',
  activiti: 'http://activiti.org/bpmn',
  camunda: 'http://camunda.org/schema/1.0/bpmn',
} as const;

/** The vendor attributes the subset reads, declared for one namespace (so moddle keeps them). */
function vendorPackage(prefix: string, uri: string) {
  const attr = (name: string) => ({ name, isAttr: true, type: 'String' });
  return {
    name: prefix,
    prefix,
    uri,
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
}

type Vendor = keyof typeof EXTENSION_URIS;

/**
 * A moddle that knows the file's vendor namespace (the first one it declares): two packages that
 * declare the same attribute on the same BPMN type cannot share one moddle.
 */
/**
 * The element a parser warning names after `prefix` ("unrecognized element <bpmn:foo>"), up to the
 * next ">": what /prefix([^>]+)>/ found, without its search from every position of a warning that
 * quotes the caller's text.
 */
function elementNamed(message: string, prefix: string): string | undefined {
  for (let at = message.indexOf(prefix); at !== -1; at = message.indexOf(prefix, at + 1)) {
    const from = at + prefix.length;
    const end = message.indexOf('>', from);
    if (end === -1) return undefined;
    // "<>" names nothing: the expression went on to the next occurrence
    if (end > from) return message.slice(from, end);
  }
  return undefined;
}

function moddleFor(xml: string): BpmnModdle {
  let vendor: Vendor = 'flowable';
  let first = Infinity;
  for (const [name, uri] of Object.entries(EXTENSION_URIS) as [Vendor, string][]) {
    const at = xml.indexOf(`"${uri}"`);
    if (at >= 0 && at < first) [vendor, first] = [name, at];
  }
  return new BpmnModdle({ [vendor]: vendorPackage(vendor, EXTENSION_URIS[vendor]) });
}

/** A vendor attribute (flowable:assignee, camunda:assignee …), by its namespace. */
function vendorAttr(el: ModdleElement, name: string): string | undefined {
  for (const prefix of Object.keys(EXTENSION_URIS)) {
    const v = el.get(`${prefix}:${name}`);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}

const SUPPORTED: Readonly<Record<string, NodeKind | 'sequenceFlow'>> = {
  'bpmn:StartEvent': 'startEvent',
  'bpmn:EndEvent': 'endEvent',
  'bpmn:UserTask': 'userTask',
  'bpmn:ExclusiveGateway': 'exclusiveGateway',
  'bpmn:ParallelGateway': 'parallelGateway',
  'bpmn:SequenceFlow': 'sequenceFlow',
};

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
const VARIABLE = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
const JUEL_LANGUAGES = new Set(['', 'juel', 'http://www.w3.org/1999/xpath', 'http://www.w3.org/1999/xpath/', 'javax.el', 'el']);

class Collector {
  readonly issues: WorkflowMessage[] = [];

  add(key: WorkflowMessageKey, params: Record<string, unknown> = {}) {
    this.issues.push({ key, params });
  }
}

const label = (el: ModdleElement) => elementLabel(el.$type, el.id, el.name);

function template(text: string | undefined, el: ModdleElement, issues: Collector): Template | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return parseTemplate(text.trim());
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    issues.add('badExpression', { element: label(el), detail: err.message });
    return undefined;
  }
}

/** Listeners, form properties and other extensions would be behaviour we do not run: refused. */
function checkExtensions(el: ModdleElement, issues: Collector) {
  for (const ext of el.extensionElements?.values ?? []) {
    issues.add('unsupportedExtension', { element: label(el), extension: ext.$type });
  }
}

function checkEventDefinitions(el: ModdleElement, allowTerminate: boolean, issues: Collector): boolean {
  let terminate = false;
  for (const def of el.eventDefinitions ?? []) {
    if (allowTerminate && def.$type === 'bpmn:TerminateEventDefinition') terminate = true;
    else issues.add('unsupportedEvent', { element: label(el), definition: elementLabel(def.$type) });
  }
  return terminate;
}

function multiInstance(el: ModdleElement, issues: Collector): MultiInstance | undefined {
  const loop = el.loopCharacteristics;
  if (!loop) return undefined;
  if (loop.$type !== 'bpmn:MultiInstanceLoopCharacteristics') {
    issues.add('unsupportedLoop', { element: label(el), loop: typeName(loop.$type) });
    return undefined;
  }
  if (
    loop.loopDataInputRef ||
    loop.inputDataItem ||
    loop.loopDataOutputRef ||
    loop.outputDataItem ||
    loop.complexBehaviorDefinition?.length
  ) {
    issues.add('unsupportedLoop', { element: label(el), loop: 'data input/output' });
  }
  const collection = template(vendorAttr(loop, 'collection'), el, issues);
  const cardinality = template(loop.loopCardinality?.body, el, issues);
  if (!collection && !cardinality) issues.add('loopSource', { element: label(el) });
  const elementVariable = vendorAttr(loop, 'elementVariable');
  if (elementVariable !== undefined && !VARIABLE.test(elementVariable))
    issues.add('badVariableName', { element: label(el), name: elementVariable });
  return {
    sequential: loop.isSequential === true,
    collection: collection ?? undefined,
    cardinality: collection ? undefined : cardinality,
    elementVariable,
    completion: template(loop.completionCondition?.body, el, issues),
  };
}

function buildNode(el: ModdleElement, kind: NodeKind, issues: Collector): FlowNode {
  checkExtensions(el, issues);
  const node: FlowNode = { id: el.id!, kind, name: (el.name ?? '').trim(), incoming: [], outgoing: [] };
  if (kind === 'startEvent' || kind === 'endEvent') {
    node.terminate = checkEventDefinitions(el, kind === 'endEvent', issues) || undefined;
  }
  if (kind !== 'userTask' && el.loopCharacteristics)
    issues.add('unsupportedLoop', { element: label(el), loop: typeName(el.loopCharacteristics.$type) });
  if (kind === 'userTask') {
    node.assignee = template(vendorAttr(el, 'assignee'), el, issues);
    node.candidateUsers = template(vendorAttr(el, 'candidateUsers'), el, issues);
    node.candidateGroups = template(vendorAttr(el, 'candidateGroups'), el, issues);
    node.formKey = vendorAttr(el, 'formKey');
    node.multi = multiInstance(el, issues);
    const declared = ['assignee', 'candidateUsers', 'candidateGroups'].some((a) => vendorAttr(el, a) !== undefined);
    if (!declared) issues.add('noAssignment', { element: label(el) });
  }
  if (kind === 'exclusiveGateway' && el.default) node.default = el.default.id;
  return node;
}

function buildFlow(el: ModdleElement, issues: Collector): SequenceFlow {
  checkExtensions(el, issues);
  const flow: SequenceFlow = { id: el.id!, name: (el.name ?? '').trim(), source: el.sourceRef?.id ?? '', target: el.targetRef?.id ?? '' };
  const expr = el.conditionExpression;
  if (expr) {
    const language = String(expr.language ?? '')
      .trim()
      .toLowerCase();
    if (!JUEL_LANGUAGES.has(language)) issues.add('conditionLanguage', { element: label(el), language: expr.language });
    else flow.condition = template(expr.body, el, issues);
  }
  return flow;
}

/** The one process of the file (a collaboration may wrap it in a pool). */
function theProcess(definitions: ModdleElement, issues: Collector): ModdleElement | undefined {
  const processes: ModdleElement[] = [];
  for (const root of definitions.rootElements ?? []) {
    if (root.$type === 'bpmn:Process') processes.push(root);
    else if (root.$type === 'bpmn:Collaboration') {
      if (root.messageFlows?.length) issues.add('unsupportedRoot', { element: elementLabel('bpmn:MessageFlow', root.messageFlows[0].id) });
    } else issues.add('unsupportedRoot', { element: label(root) });
  }
  if (processes.length !== 1) {
    issues.add('processCount', { count: processes.length });
    return undefined;
  }
  return processes[0];
}

function connect(
  nodes: Record<string, FlowNode>,
  flows: Record<string, SequenceFlow>,
  byId: Record<string, ModdleElement>,
  issues: Collector,
) {
  for (const flow of Object.values(flows)) {
    const source = nodes[flow.source];
    const target = nodes[flow.target];
    if (!source || !target) {
      issues.add('danglingFlow', { element: label(byId[flow.id]) });
      continue;
    }
    source.outgoing.push(flow.id);
    target.incoming.push(flow.id);
    if (flow.condition && source.kind !== 'exclusiveGateway') {
      if (source.kind === 'parallelGateway') issues.add('parallelCondition', { element: label(byId[source.id]), flow: flow.id });
      else issues.add('conditionOutsideGateway', { element: label(byId[flow.id]) });
    }
  }
}

function checkShape(
  nodes: Record<string, FlowNode>,
  flows: Record<string, SequenceFlow>,
  byId: Record<string, ModdleElement>,
  issues: Collector,
) {
  const starts = Object.values(nodes).filter((n) => n.kind === 'startEvent');
  if (starts.length !== 1) issues.add('startCount', { count: starts.length });
  if (!Object.values(nodes).some((n) => n.kind === 'endEvent')) issues.add('noEnd');
  const outgoing = (n: FlowNode, expected: string, ok: boolean) =>
    ok || issues.add('outgoingCount', { element: label(byId[n.id]), expected, count: n.outgoing.length });
  const incoming = (n: FlowNode, expected: string, ok: boolean) =>
    ok || issues.add('incomingCount', { element: label(byId[n.id]), expected, count: n.incoming.length });
  for (const n of Object.values(nodes)) {
    switch (n.kind) {
      case 'startEvent':
        incoming(n, '0', n.incoming.length === 0);
        outgoing(n, '1', n.outgoing.length === 1);
        break;
      case 'endEvent':
        incoming(n, '≥1', n.incoming.length >= 1);
        outgoing(n, '0', n.outgoing.length === 0);
        break;
      case 'userTask':
        incoming(n, '≥1', n.incoming.length >= 1);
        outgoing(n, '1', n.outgoing.length === 1);
        break;
      default:
        incoming(n, '≥1', n.incoming.length >= 1);
        outgoing(n, '≥1', n.outgoing.length >= 1);
    }
    if (n.default !== undefined) {
      if (!n.outgoing.includes(n.default)) issues.add('defaultNotOutgoing', { element: label(byId[n.id]), flow: n.default });
      else if (flows[n.default].condition) issues.add('defaultHasCondition', { flow: n.default });
    }
  }
}

/** Every node is reachable from the start, and an end is reachable from every node. */
function checkReachability(
  graph: { start: string; nodes: Record<string, FlowNode>; flows: Record<string, SequenceFlow> },
  byId: Record<string, ModdleElement>,
  issues: Collector,
) {
  const walk = (from: string[], next: (n: FlowNode) => string[]) => {
    const seen = new Set(from);
    const queue = [...from];
    while (queue.length) {
      for (const id of next(graph.nodes[queue.pop()!])) if (!seen.has(id)) seen.add(id), queue.push(id);
    }
    return seen;
  };
  const forward = walk([graph.start], (n) => n.outgoing.map((f) => graph.flows[f].target));
  const ends = Object.values(graph.nodes)
    .filter((n) => n.kind === 'endEvent')
    .map((n) => n.id);
  const backward = walk(ends, (n) => n.incoming.map((f) => graph.flows[f].source));
  for (const n of Object.values(graph.nodes)) {
    if (!forward.has(n.id)) issues.add('unreachable', { element: label(byId[n.id]) });
    else if (!backward.has(n.id)) issues.add('deadEnd', { element: label(byId[n.id]) });
  }
}

/** Parses and checks a model; throws DefinitionError naming every refused element. */
export async function compileDefinition(xml: string): Promise<ProcessGraph> {
  const issues = new Collector();
  if (typeof xml !== 'string' || xml.trim() === '') throw new DefinitionError([{ key: 'notBpmn', params: { detail: 'empty' } }]);
  if (xml.length > DEFINITION_LIMITS.bytes) throw new DefinitionError([{ key: 'tooLarge', params: { limit: DEFINITION_LIMITS.bytes } }]);
  let parsed: ParseResult;
  try {
    parsed = await moddleFor(xml).fromXML(xml);
  } catch (err) {
    throw new DefinitionError([{ key: 'notBpmn', params: { detail: String((err as Error).message).split('\n')[0] } }]);
  }
  for (const w of parsed.warnings) {
    const unknown = elementNamed(w.message, 'unrecognized element <') ?? elementNamed(w.message, 'unparsable content <');
    if (unknown) issues.add('unknownElement', { element: `<${unknown}>` });
  }
  if (parsed.rootElement?.$type !== 'bpmn:Definitions')
    throw new DefinitionError([{ key: 'notBpmn', params: { detail: 'no bpmn:definitions' } }]);
  const process = theProcess(parsed.rootElement, issues);
  if (!process) throw new DefinitionError(issues.issues);
  if (!process.id || !KEY.test(process.id)) issues.add('badKey', { key: process.id ?? '' });
  checkExtensions(process, issues);

  const elements: ModdleElement[] = process.flowElements ?? [];
  if (elements.length > DEFINITION_LIMITS.elements)
    throw new DefinitionError([{ key: 'tooManyElements', params: { limit: DEFINITION_LIMITS.elements } }]);
  const nodes: Record<string, FlowNode> = {};
  const flows: Record<string, SequenceFlow> = {};
  const byId: Record<string, ModdleElement> = {};
  let initiator: string | undefined;
  for (const el of elements) {
    byId[el.id!] = el;
    const kind = SUPPORTED[el.$type];
    if (!kind) {
      issues.add('unsupportedElement', { element: label(el) });
      continue;
    }
    if (kind === 'sequenceFlow') flows[el.id!] = buildFlow(el, issues);
    else nodes[el.id!] = buildNode(el, kind, issues);
    if (kind === 'startEvent') initiator = vendorAttr(el, 'initiator');
  }
  if (initiator !== undefined && !VARIABLE.test(initiator))
    issues.add('badVariableName', { element: label(byId[Object.values(nodes).find((n) => n.kind === 'startEvent')!.id]), name: initiator });
  connect(nodes, flows, byId, issues);
  checkShape(nodes, flows, byId, issues);
  const start = Object.values(nodes).find((n) => n.kind === 'startEvent');
  if (issues.issues.length || !start) throw new DefinitionError(issues.issues);
  const graph = { start: start.id, nodes, flows };
  checkReachability(graph, byId, issues);
  if (issues.issues.length) throw new DefinitionError(issues.issues);
  const description = (process.documentation ?? [])
    .map((d: ModdleElement) => d.text ?? '')
    .join('\n')
    .trim();
  return { key: process.id!, name: (process.name ?? process.id!).trim(), description, initiator, ...graph };
}
